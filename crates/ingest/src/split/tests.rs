use super::*;
use crate::ingest;

/// A `kubectl get -A -o json` dump of 8 Pods with their workloads, Services, Nodes and events
/// (`gen-dump.py --pods 8 --format json`).
const DUMP_JSON: &str = include_str!("../../../../tests/fixtures/split/dump-8.json");
/// The same generator's YAML, 6 Pods.
const DUMP_YAML: &str = include_str!("../../../../tests/fixtures/ingest/gen-dump-6-pods.yaml");

/// What the app's coordinator does, without threads: cut, read every part as a reader would (its
/// items sent as bytes and read back), check the rest, merge. `None` where it falls back.
fn read_in_parts(sources: &[Source], index: usize, parts: usize) -> Option<Ingested> {
    let source = &sources[index];
    let cut = cut_list(&source.text, parts, 1.0 / parts as f64)?;
    if !plain(source, cut.format) {
        return None;
    }
    let skeleton = Source::new(source.name.clone(), cut.skeleton(&source.text));
    let implied_kind = check_skeleton(&skeleton)?;
    let mut items = Vec::new();
    for part in &cut.parts {
        let read = read_part(&source.text[part.range.clone()], part.first_line, cut.format)?;
        items.extend(decode_items(&encode_items(&read))?);
    }
    Some(ingest_merged(
        sources,
        Merged {
            index,
            skeleton,
            implied_kind,
            items,
        },
        &mut |_, _| {},
    ))
}

/// The whole reading, as text: every object (its tree with every position, its typed form),
/// error, summary and everything else `Ingested` holds.
fn reading(ingested: &Ingested) -> String {
    format!("{ingested:#?}")
}

fn assert_same_reading(sources: &[Source], index: usize, parts: usize) -> ListCut {
    let cut = cut_list(&sources[index].text, parts, 1.0 / parts as f64).expect("a List to cut");
    let merged = read_in_parts(sources, index, parts).expect("the parts read cleanly");
    let whole = ingest(sources);
    assert!(!whole.objects.is_empty());
    assert_eq!(merged.objects.len(), whole.objects.len());
    // Compared line by line, so that a difference shows where it is.
    for (line, (got, want)) in reading(&merged).lines().zip(reading(&whole).lines()).enumerate() {
        assert_eq!(got, want, "{parts} parts: line {line} of the reading differs");
    }
    assert_eq!(reading(&merged), reading(&whole));
    cut
}

#[test]
fn a_json_dump_read_in_parts_reads_as_the_whole() {
    for parts in [1, 2, 3, 4, 7] {
        let sources = [Source::new("dump.json", DUMP_JSON)];
        let cut = assert_same_reading(&sources, 0, parts);
        assert_eq!(cut.format, ListFormat::Json);
        assert_eq!(
            cut.parts.len(),
            parts,
            "the dump has enough items for {parts} parts"
        );
    }
}

#[test]
fn a_yaml_dump_read_in_parts_reads_as_the_whole() {
    for parts in [1, 2, 3, 4, 7] {
        let sources = [Source::new("dump.yaml", DUMP_YAML)];
        let cut = assert_same_reading(&sources, 0, parts);
        assert_eq!(cut.format, ListFormat::Yaml);
        assert_eq!(cut.parts.len(), parts);
    }
}

/// The input read in parts among others: its objects keep their input's index, and the other
/// inputs' objects stay before and after them.
#[test]
fn a_dump_between_other_inputs_keeps_its_place() {
    let pod =
        "apiVersion: v1\nkind: Pod\nmetadata:\n  name: web-0\n  namespace: shop\nstatus:\n  phase: Pending\n";
    let events = "LAST SEEN   TYPE      REASON    OBJECT      MESSAGE\n2m          Warning   Failed    pod/web-0   Error: ImagePullBackOff\n";
    let sources = [
        Source::new("pod.yaml", pod),
        Source::new("dump.json", DUMP_JSON),
        Source::new("events.txt", events),
    ];
    assert_same_reading(&sources, 1, 3);
}

#[test]
fn the_parts_are_whole_items_on_their_own_lines_and_cover_every_item() {
    for (text, parts) in [(DUMP_JSON, 4), (DUMP_YAML, 3)] {
        let cut = cut_list(text, parts, 1.0 / parts as f64).expect("a List");
        assert_eq!(cut.parts.first().map(|p| p.range.start), Some(cut.items.start));
        assert_eq!(cut.parts.last().map(|p| p.range.end), Some(cut.items.end));
        for pair in cut.parts.windows(2) {
            assert_eq!(pair[0].range.end, pair[1].range.start);
        }
        for part in &cut.parts {
            let line = 1 + text[..part.range.start].matches('\n').count() as u32;
            assert_eq!(part.first_line, line);
            let first = text[part.range.clone()].lines().next().unwrap_or_default();
            assert!(
                first.trim() == "{" || first.starts_with("- "),
                "a part starts with an item: {first:?}"
            );
        }
        // About equal sizes: none more than twice the mean.
        let mean = cut.items.len() / cut.parts.len();
        assert!(cut.parts.iter().all(|p| p.range.len() < 2 * mean));
    }
    // A smaller first part (the coordinator's, which also checks the rest), the others alike.
    let cut = cut_list(DUMP_JSON, 3, 0.1).expect("a List");
    let sizes: Vec<f64> = cut
        .parts
        .iter()
        .map(|p| p.range.len() as f64 / cut.items.len() as f64)
        .collect();
    assert!(sizes[0] < 0.2 && sizes[1] > 0.3 && sizes[2] > 0.3, "{sizes:?}");
}

#[test]
fn a_list_with_one_item_is_one_part_and_reads_as_the_whole() {
    let text = "{\n    \"apiVersion\": \"v1\",\n    \"items\": [\n        {\n            \"apiVersion\": \"v1\",\n            \"kind\": \"Pod\",\n            \"metadata\": {\n                \"name\": \"web-0\",\n                \"namespace\": \"shop\"\n            }\n        }\n    ],\n    \"kind\": \"List\",\n    \"metadata\": {\n        \"resourceVersion\": \"\"\n    }\n}\n";
    let sources = [Source::new("one.json", text)];
    let cut = assert_same_reading(&sources, 0, 4);
    assert_eq!(cut.parts.len(), 1);
}

/// Strings holding braces, `- ` and escaped line breaks, and lists nested in items, are never taken
/// for item boundaries; the items in a `PodList` without `kind` take it from the List.
#[test]
fn braces_dashes_and_nested_lists_inside_items_are_not_boundaries() {
    let item = |name: &str| {
        format!(
            "        {{\n            \"metadata\": {{\n                \"name\": \"{name}\",\n                \"namespace\": \"shop\",\n                \"annotations\": {{\n                    \"note\": \"}},\\n        {{\\n- x: [1, {{}}]\"\n                }}\n            }},\n            \"spec\": {{\n                \"containers\": [\n                    {{\n                        \"name\": \"a\",\n                        \"args\": [\"- b\", \"}}\", \"{{\"]\n                    }},\n                    {{\n                        \"name\": \"b\"\n                    }}\n                ]\n            }}\n        }}"
        )
    };
    let items: Vec<String> = (0..6).map(|i| item(&format!("web-{i}"))).collect();
    let text = format!(
        "{{\n    \"apiVersion\": \"v1\",\n    \"items\": [\n{}\n    ],\n    \"kind\": \"PodList\",\n    \"metadata\": {{}}\n}}\n",
        items.join(",\n")
    );
    let sources = [Source::new("pods.json", text)];
    let cut = assert_same_reading(&sources, 0, 3);
    assert_eq!(cut.parts.len(), 3);
    let merged = read_in_parts(&sources, 0, 3).expect("read in parts");
    assert!(merged.objects.iter().all(|o| o.id.kind == "Pod"));

    let yaml_item = |name: &str| {
        format!(
            "- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: {name}\n    namespace: shop\n  data:\n    script: |\n      - not an item\n      {{ \"also\": \"not\" }}\n    list: \"- a, - b\"\n    nested:\n    - - x\n      - y\n    - z\n"
        )
    };
    let yaml: String = (0..6).map(|i| yaml_item(&format!("cm-{i}"))).collect();
    let text = format!("apiVersion: v1\nitems:\n{yaml}kind: List\nmetadata:\n  resourceVersion: \"\"\n");
    let sources = [Source::new("cms.yaml", text)];
    let cut = assert_same_reading(&sources, 0, 4);
    assert_eq!(cut.parts.len(), 4);
}

/// A broken item: its part is refused (so the coordinator reads the input whole, and the error is
/// reported at its line, as in any reading), and the other parts still read.
#[test]
fn a_broken_item_refuses_its_part_only_and_the_whole_reading_keeps_its_line() {
    let broken = DUMP_YAML.replacen("  kind: Service\n", "  kind: Service\n  : [oops\n", 1);
    let line = 1 + broken[..broken.find(": [oops").expect("the break")]
        .matches('\n')
        .count() as u32;
    let cut = cut_list(&broken, 4, 0.25).expect("still a List to cut");
    let reads: Vec<bool> = cut
        .parts
        .iter()
        .map(|p| read_part(&broken[p.range.clone()], p.first_line, cut.format).is_some())
        .collect();
    assert_eq!(reads.iter().filter(|ok| !**ok).count(), 1, "{reads:?}");
    let sources = [Source::new("dump.yaml", broken.clone())];
    assert!(read_in_parts(&sources, 0, 4).is_none());
    let whole = ingest(&sources);
    // The YAML reader reports a misplaced `:` at the token after it, on this line or the next.
    assert!(
        whole.errors.iter().any(|e| (line..=line + 1).contains(&e.line)),
        "{line}: {:?}",
        whole.errors
    );

    let broken = DUMP_JSON.replacen("\"kind\": \"Service\",", "\"kind\": \"Service\" oops,", 1);
    let cut = cut_list(&broken, 4, 0.25).expect("still a List to cut");
    let refused = cut
        .parts
        .iter()
        .filter(|p| read_part(&broken[p.range.clone()], p.first_line, cut.format).is_none())
        .count();
    assert_eq!(refused, 1);
}

#[test]
fn what_is_not_a_plain_list_is_not_cut_or_not_read_in_parts() {
    assert_eq!(
        cut_list("apiVersion: v1\nkind: Pod\nmetadata:\n  name: a\n", 4, 0.5),
        None
    );
    assert_eq!(
        cut_list("{\"kind\": \"List\", \"items\": [{}, {}]}", 4, 0.5),
        None
    );
    assert_eq!(cut_list("NAME   READY\nweb-0  1/1\n", 2, 0.5), None);
    // Quoted as an e-mail quotes it: cut, but not plain, so read whole.
    let quoted: String = DUMP_YAML.lines().map(|l| format!("> {l}\n")).collect();
    let sources = [Source::new("mail.txt", quoted)];
    assert!(read_in_parts(&sources, 0, 2).is_none());
    // A prompt in front: two segments.
    let prompted = format!("$ kubectl get all -A -o yaml\n{DUMP_YAML}");
    assert!(!plain(&Source::new("paste", prompted), ListFormat::Yaml));
}

#[test]
fn items_survive_their_binary_form() {
    let items = read_part(
        &DUMP_YAML[cut_list(DUMP_YAML, 1, 1.0).expect("a List").items],
        3,
        ListFormat::Yaml,
    )
    .expect("the items read");
    let bytes = encode_items(&items);
    assert_eq!(decode_items(&bytes), Some(items));
    assert_eq!(decode_items(&bytes[..bytes.len() - 1]), None);
    assert_eq!(decode_items(&[0xff, 0xff, 0xff, 0x0f]), None);
}
