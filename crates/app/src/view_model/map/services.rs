//! The Services section: Service ▸ EndpointSlice ▸ endpoint ▸ Pod.

use std::collections::HashMap;

use super::band::{in_namespace, order_members, place_members, Band};
use super::graph::Graph;
use super::{GroupKey, Item, LinkKind, Lit, Options, Section, EXPANDED_MAX};

pub(super) fn services(g: &Graph<'_>, lit: &HashMap<usize, Lit>, options: &Options) -> Vec<Band> {
    let report = g.report;
    let mut bands = Vec::new();
    for service in (0..report.objects.len())
        .filter(|&i| g.kind(i) == "Service")
        .filter(|&i| in_namespace(g.namespace(i), options))
    {
        let mut band = Band {
            sort_name: (
                g.namespace(service).unwrap_or_default().to_string(),
                g.name(service).to_string(),
            ),
            ..Band::default()
        };
        band.note(report, lit, service);
        let service_at = band.put(Item::Object(service), 0, 0);
        let mut slices = g.slices_of.get(&service).cloned().unwrap_or_default();
        slices.sort_by_key(|&s| (g.kind(s) != "EndpointSlice", g.name(s).to_string()));
        let mut row = 0;
        if slices.is_empty() {
            band.put(Item::NoSlice { service }, 1, 0);
            let mut pods = g.selected_by.get(&service).cloned().unwrap_or_default();
            order_members(report, &mut pods);
            for (i, pod) in pods.into_iter().take(EXPANDED_MAX).enumerate() {
                band.note(report, lit, pod);
                let at = band.put(Item::Object(pod), 3, i);
                band.link(service_at, at, LinkKind::Selects, false);
            }
        }
        for slice in slices {
            band.note(report, lit, slice);
            let slice_at = band.put(Item::Object(slice), 1, row);
            band.link(slice_at, service_at, LinkKind::EndpointsOf, false);
            let endpoints = &report.objects[slice].endpoints;
            let mut members: Vec<usize> = (0..endpoints.len()).collect();
            // Not ready first, then by address.
            members.sort_by_key(|&e| {
                (
                    endpoints[e].ready != Some(false),
                    endpoints[e].addresses.first().cloned().unwrap_or_default(),
                )
            });
            for &e in &members {
                if let Some(pod) = endpoints[e].target {
                    band.note(report, lit, pod);
                }
            }
            if members.is_empty() {
                row += 1;
                continue;
            }
            let key = GroupKey {
                section: Section::Services,
                owner: Some(slice),
            };
            let not_ready = |e: usize| endpoints.get(e).is_some_and(|e| e.ready == Some(false));
            let (shown, rows) = place_members(
                &mut band,
                key,
                members,
                (2, row),
                &options.expanded,
                &not_ready,
                &|index| Item::Endpoint { slice, index },
            );
            for (at, e) in shown {
                band.link(slice_at, at, LinkKind::Lists, false);
                if let Some(pod) = endpoints[e].target {
                    let pod_at = band.put(Item::Object(pod), 3, band.placed[at].2);
                    band.link(at, pod_at, LinkKind::EndpointIs, endpoints[e].inferred);
                }
            }
            row += rows;
        }
        band.rows = band.rows.max(row).max(1);
        bands.push(band);
    }
    bands
}
