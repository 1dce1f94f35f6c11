use super::*;

fn key(line: &str) -> Key {
    Key::parse(line).unwrap_or_else(|| panic!("not a command line: {line}"))
}

fn covers(pasted: &str, step: &str) -> bool {
    key(pasted).covers(&key(step))
}

#[test]
fn words_are_what_the_shell_passes() {
    assert_eq!(
        words("kubectl get pod 'a b'\"c\"\\ d -n x | grep -i 'y z'   # why"),
        Some(vec![
            vec![
                "kubectl".into(),
                "get".into(),
                "pod".into(),
                "a bc d".into(),
                "-n".into(),
                "x".into()
            ],
            vec!["grep".into(), "-i".into(), "y z".into()],
        ])
    );
    assert_eq!(words("kubectl get pods; rm -rf ~"), None);
    assert_eq!(words("kubectl logs $(kubectl get pods -o name)"), None);
    assert_eq!(words("kubectl get pods -n 'shop"), None);
}

#[test]
fn the_same_command_spelt_another_way_is_the_same_output() {
    let step = "kubectl describe pod web-7d9f -n shop";
    for pasted in [
        "kubectl describe pod web-7d9f -n shop",
        "kubectl   describe pod 'web-7d9f'  -n shop",
        "kubectl -n shop describe pod web-7d9f",
        "kubectl describe --namespace=shop pods web-7d9f",
        "kubectl describe po/web-7d9f --namespace shop",
        "kubectl -nshop describe pod web-7d9f",
        "k describe pod web-7d9f -n shop",
        "microk8s kubectl describe pod web-7d9f -n shop",
    ] {
        assert!(covers(pasted, step), "{pasted}");
    }
    assert!(covers(
        "kubectl logs pod/web -n shop --previous --tail 50",
        "kubectl logs -n shop web -p --tail=50"
    ));
}

#[test]
fn another_object_namespace_or_flag_is_other_output() {
    let step = "kubectl describe pod web-7d9f -n shop";
    for pasted in [
        "kubectl describe pod web-7d9e -n shop",
        "kubectl describe pod web-7d9f -n shop-2",
        "kubectl describe pod web-7d9f",
        "kubectl get pod web-7d9f -n shop -o yaml",
        "kubectl describe deploy web-7d9f -n shop",
    ] {
        assert!(!covers(pasted, step), "{pasted}");
    }
    // The previous container's log is not the current one's, nor the last 50 lines of it all.
    assert!(!covers(
        "kubectl logs web -n shop",
        "kubectl logs web -n shop --previous"
    ));
    assert!(!covers(
        "kubectl logs web -n shop",
        "kubectl logs web -n shop --tail=50"
    ));
}

#[test]
fn outputs_that_hold_what_the_step_prints_cover_it() {
    assert!(covers(
        "kubectl get pods -n shop -o wide",
        "kubectl get pods -n shop"
    ));
    assert!(!covers(
        "kubectl get pods -n shop",
        "kubectl get pods -n shop -o wide"
    ));
    assert!(covers(
        "kubectl get pod web -n shop -o json",
        "kubectl get pod web -n shop -o yaml"
    ));
    assert!(covers(
        "kubectl get pod web -n shop -oyaml",
        "kubectl get pod web -n shop -o jsonpath='{.spec.schedulingGates}'"
    ));
    // A table's STATUS is computed from fields; a YAML does not cover the table.
    assert!(!covers(
        "kubectl get pods -n shop -o yaml",
        "kubectl get pods -n shop"
    ));
    // Every namespace's listing holds one namespace's, not a named object's lookup.
    assert!(covers("kubectl get events -A", "kubectl get events -n shop"));
    assert!(!covers(
        "kubectl get pods -A",
        "kubectl get pods -n shop -l app=web"
    ));
    // A filtered paste holds only what the filter kept; an unfiltered one holds what a filter keeps.
    assert!(!covers(
        "kubectl get pods -A -o wide | grep csi",
        "kubectl get pods -A -o wide"
    ));
    assert!(covers(
        "kubectl describe nodes",
        "kubectl describe nodes | grep -A 8 'Allocated resources'"
    ));
}

#[test]
fn a_command_without_a_namespace_ran_in_the_context_the_placeholder_stands_for() {
    // The step writes the placeholder where the input states no namespace.
    assert!(covers("kubectl get pods", "kubectl get pods -n '<namespace>'"));
    // The paste's output states it: the command ran there.
    let pasted = key("kubectl describe pod web").in_namespace(Some("shop"));
    assert!(pasted.covers(&key("kubectl describe pod web -n shop")));
    assert!(!pasted.covers(&key("kubectl describe pod web -n other")));
    // Nodes are in no namespace: `-n` changes nothing.
    assert!(covers(
        "kubectl describe node worker-2",
        "kubectl describe no/worker-2 -n shop"
    ));
    let node = key("kubectl describe node worker-2").in_namespace(Some("shop"));
    assert!(node.covers(&key("kubectl describe node worker-2")));
}

#[test]
fn other_programs_are_compared_word_for_word() {
    assert!(covers("etcdctl alarm list", "etcdctl  alarm list"));
    assert!(!covers(
        "etcdctl alarm list",
        "etcdctl endpoint status --cluster -w table"
    ));
    assert!(!covers(
        "kubeadm certs check-expiration",
        "kubectl certs check-expiration"
    ));
}

#[test]
fn the_namespace_an_output_states_is_one_or_none() {
    assert_eq!(
        stated_namespace([None, Some("a"), Some("a")].into_iter()),
        Some("a")
    );
    assert_eq!(stated_namespace([Some("a"), Some("b")].into_iter()), None);
    assert_eq!(stated_namespace([None, None].into_iter()), None);
}
