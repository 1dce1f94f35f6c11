use super::ObjectRef;

fn pod(namespace: &str, name: &str, uid: Option<&str>) -> ObjectRef {
    ObjectRef {
        kind: "Pod".into(),
        namespace: Some(namespace.into()),
        name: name.into(),
        uid: uid.map(Into::into),
    }
}

#[test]
fn identity_is_kind_namespace_and_name_and_the_uid_is_only_carried() {
    use std::collections::{BTreeSet, HashSet};
    let from_event = pod("shop", "web-0", Some("u1"));
    let from_table = pod("shop", "web-0", None);
    let recreated = pod("shop", "web-0", Some("u2"));
    assert_eq!(from_event, from_table);
    assert_eq!(from_event, recreated);
    assert_ne!(from_event, pod("other", "web-0", Some("u1")));
    assert_ne!(
        from_event,
        ObjectRef {
            kind: "Service".into(),
            ..from_event.clone()
        }
    );
    assert_eq!(
        [from_event.clone(), from_table.clone(), recreated.clone()]
            .into_iter()
            .collect::<HashSet<_>>()
            .len(),
        1
    );
    assert_eq!(
        [from_event.clone(), from_table.clone(), recreated.clone()]
            .into_iter()
            .collect::<BTreeSet<_>>()
            .len(),
        1
    );
    assert_eq!(from_event.cmp(&recreated), std::cmp::Ordering::Equal);
    assert!(pod("a", "web", Some("z")) < pod("b", "web", Some("a")));
    // The uid is kept (the report carries it) and still tells incarnations apart when asked.
    assert_eq!(from_event.uid.as_deref(), Some("u1"));
    assert!(from_event.uid_contradicts(&recreated));
    assert!(!from_event.uid_contradicts(&from_table));
    assert!(!from_table.uid_contradicts(&recreated));
    assert!(!from_event.uid_contradicts(&from_event.clone()));
}
