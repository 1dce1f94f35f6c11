//! A parsed document as a tree of nodes that remember where they came from.
//!
//! Both readers (YAML and JSON) produce this tree, so everything downstream — typed decoding, field
//! lookups for evidence — works the same whatever the user pasted. Every node carries the 1-based line
//! and column of its first character in the source text; map entries also carry the position of their
//! key, because evidence points at `reason: ErrImagePull`, the line a person would look for.

pub use faultline_report::{Pos, Text};

/// How a scalar was written. Quoted scalars are always strings; plain ones are resolved like YAML 1.2's
/// core schema (`true`, `42`, `null`) only when the reader of the tree asks for "any" type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScalarStyle {
    Plain,
    Quoted,
}

/// A node's value. 24 bytes, so that a map entry is 48 with its [`Key`] (a 1,000-Pod dump's
/// trees hold 315,000 entries): how a scalar was written is only kept when it matters (`Quoted`),
/// and lists and maps are boxed slices, built once and never grown.
///
/// Equal strings are equal values whether they are held as `Scalar` or `Shared`.
#[derive(Clone, Debug)]
pub enum NodeValue {
    Null,
    /// A plain scalar, or a quoted one that would read as a string anyway: build it with
    /// [`NodeValue::scalar`].
    Scalar(Text),
    /// A `Scalar` too long to be held inline by a [`Text`], shared like a key by every equal value
    /// that one reader read ([`NodeValue::scalar_in`]). A dump repeats its long values: of the
    /// 43,275 values over 24 bytes in the trees of the 1,000-Pod YAML dump, 14,112 are distinct
    /// (a service account's mount path, tolerations' keys, images, node names).
    Shared(Key),
    /// A quoted scalar that unquoted would read as null, a boolean or a number (`"true"`, `"8080"`,
    /// `""`): it stays a string. Rare, so not inline.
    Quoted(Box<str>),
    Seq(Box<[Node]>),
    Map(Box<[MapEntry]>),
}

impl NodeValue {
    /// A scalar written in `style`.
    pub fn scalar(text: impl Into<Text>, style: ScalarStyle) -> Self {
        let text = text.into();
        if stays_quoted(&text, style) {
            NodeValue::Quoted(text.as_str().into())
        } else {
            NodeValue::Scalar(text)
        }
    }

    /// [`NodeValue::scalar`], a long string taken from (or added to) `keys`: see
    /// [`NodeValue::Shared`].
    pub fn scalar_in(text: &str, style: ScalarStyle, keys: &mut Keys) -> Self {
        if text.len() <= INLINE || stays_quoted(text, style) {
            return NodeValue::scalar(text, style);
        }
        NodeValue::Shared(keys.value(text))
    }

    /// The text of a scalar, quoted or plain.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            NodeValue::Scalar(s) => Some(s),
            NodeValue::Shared(s) => Some(s),
            NodeValue::Quoted(s) => Some(s),
            _ => None,
        }
    }

    /// The text of a string that is not `Quoted` (a `Scalar` or a `Shared` one).
    pub fn plain_str(&self) -> Option<&str> {
        match self {
            NodeValue::Scalar(s) => Some(s),
            NodeValue::Shared(s) => Some(s),
            _ => None,
        }
    }
}

/// A quoted scalar that unquoted would not read as a string: it is kept `Quoted`.
fn stays_quoted(text: &str, style: ScalarStyle) -> bool {
    style == ScalarStyle::Quoted && !matches!(resolve_plain(text), Resolved::Str(_))
}

/// The longest value not shared: the longest a [`Text`] holds without a heap allocation (24 bytes;
/// 12 on wasm32, where sharing values of 13 to 24 bytes as well read the 1k dumps as fast as
/// sharing only longer ones, in Node's WASI: 146 against 148 MB/s YAML, 368 against 355 JSON).
const INLINE: usize = std::mem::size_of::<Text>();

/// A scalar's text as a reader found it: most often a slice of the input, else built (unescaped,
/// or folded from several lines). Made into a value by [`NodeValue::scalar_in`], which copies it
/// once at most.
pub(crate) enum ScalarText<'a> {
    Slice(&'a str),
    Built(Text),
}

impl ScalarText<'_> {
    pub(crate) fn as_str(&self) -> &str {
        match self {
            ScalarText::Slice(text) => text,
            ScalarText::Built(text) => text,
        }
    }
}

impl PartialEq for NodeValue {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (NodeValue::Null, NodeValue::Null) => true,
            (NodeValue::Quoted(a), NodeValue::Quoted(b)) => a == b,
            (NodeValue::Seq(a), NodeValue::Seq(b)) => a == b,
            (NodeValue::Map(a), NodeValue::Map(b)) => a == b,
            _ => match (self.plain_str(), other.plain_str()) {
                (Some(a), Some(b)) => a == b,
                _ => false,
            },
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    pub value: NodeValue,
    pub pos: Pos,
}

#[derive(Clone, Debug, PartialEq)]
pub struct MapEntry {
    pub key: Key,
    pub key_pos: Pos,
    pub value: Node,
}

/// A map's key: a pointer to its text, shared by every entry with the same key. A dump repeats a
/// few hundred keys (`name`, `lastTransitionTime`) hundreds of thousands of times: as a [`Text`]
/// each entry held 24 bytes of its key, as a `Key` 8, and a key longer than 24 bytes
/// (`app.kubernetes.io/instance`) is no longer copied to the heap for every entry. A reader makes
/// its keys with [`Keys`].
pub type Key = arcstr::ArcStr;

/// The keys a reader has made, and its long values ([`NodeValue::Shared`]): each distinct text is
/// made once and shared ([`Key`]). Most keys are found in a small table indexed by their length
/// and their first and last bytes, before the set of all of them (callgrind, the 1k YAML dump's
/// keys: 32 M instructions with the table, 52 M without).
pub struct Keys {
    recent: [Option<Key>; RECENT],
    /// The long values at hand, as `recent` holds keys ([`Keys::value`]).
    recent_values: [Option<Key>; RECENT],
    all: faultline_report::hash::Set<Key>,
}

impl Default for Keys {
    fn default() -> Self {
        Self {
            recent: std::array::from_fn(|_| None),
            recent_values: std::array::from_fn(|_| None),
            all: Default::default(),
        }
    }
}

/// How many keys [`Keys`] keeps at hand.
const RECENT: usize = 256;

impl Keys {
    /// Keys with room for what a text of `bytes` holds without growing: one distinct key or long
    /// value in 1 KB at most (the 1k dumps hold about 14,500, in 19.8 MB of YAML and in 42.9 MB of
    /// JSON). Each time the set grew, it hashed every text in it again.
    pub fn for_text(bytes: usize) -> Self {
        Self {
            all: faultline_report::hash::Set::with_capacity_and_hasher(bytes / 1024, Default::default()),
            ..Self::default()
        }
    }

    /// The key `text`, shared with the entries that already have it.
    pub fn get(&mut self, text: &str) -> Key {
        let last = text.as_bytes().last().copied().unwrap_or(0) as usize;
        let slot =
            (text.len() * 37 + last * 5 + text.as_bytes().first().copied().unwrap_or(0) as usize) % RECENT;
        at_hand(&mut self.recent[slot], text, &mut self.all)
    }

    /// A long value's text ([`NodeValue::Shared`]), shared with every value and key already made
    /// from it. Values have a table at hand of their own, indexed by their length and their first,
    /// middle and last bytes: they are many, and would push the keys out of theirs. A dump repeats
    /// its values Pod after Pod; a value found in the table is not hashed.
    pub fn value(&mut self, text: &str) -> Key {
        let bytes = text.as_bytes();
        let byte = |i: usize| bytes.get(i).copied().unwrap_or(0) as usize;
        let slot =
            (text.len() * 37 + byte(0) + byte(text.len() / 2) * 13 + byte(text.len().wrapping_sub(1)) * 5)
                % RECENT;
        at_hand(&mut self.recent_values[slot], text, &mut self.all)
    }
}

/// `text` as the slot of a table at hand holds it, else from the set of every text made (made and
/// added if new), then left in the slot.
fn at_hand(slot: &mut Option<Key>, text: &str, all: &mut faultline_report::hash::Set<Key>) -> Key {
    if let Some(found) = slot {
        if found.as_str() == text {
            return found.clone();
        }
    }
    let made = match all.get(text) {
        Some(made) => made.clone(),
        None => {
            let made = Key::from(text);
            all.insert(made.clone());
            made
        }
    };
    *slot = Some(made.clone());
    made
}

/// A plain scalar resolved to its core-schema type.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Resolved<'a> {
    Null,
    Bool(bool),
    Int(i64),
    UInt(u64),
    Float(f64),
    Str(&'a str),
}

/// Resolves a plain scalar like YAML 1.2's core schema (which JSON literals are a subset of).
pub fn resolve_plain(text: &str) -> Resolved<'_> {
    match text {
        "" | "~" | "null" | "Null" | "NULL" => return Resolved::Null,
        "true" | "True" | "TRUE" => return Resolved::Bool(true),
        "false" | "False" | "FALSE" => return Resolved::Bool(false),
        _ => {}
    }
    let first = text.as_bytes()[0];
    if !(first.is_ascii_digit() || first == b'-' || first == b'+' || first == b'.') {
        return Resolved::Str(text);
    }
    if let Ok(v) = text.parse::<u64>() {
        return Resolved::UInt(v);
    }
    if let Ok(v) = text.parse::<i64>() {
        return Resolved::Int(v);
    }
    let looks_numeric = text
        .bytes()
        .all(|b| b.is_ascii_digit() || matches!(b, b'-' | b'+' | b'.' | b'e' | b'E'));
    if looks_numeric && text.bytes().any(|b| b.is_ascii_digit()) {
        if let Ok(v) = text.parse::<f64>() {
            return Resolved::Float(v);
        }
    }
    Resolved::Str(text)
}

impl Node {
    pub fn new(value: NodeValue, pos: Pos) -> Self {
        Self { value, pos }
    }

    /// The entry of a map node with this key, if any.
    pub fn entry(&self, key: &str) -> Option<&MapEntry> {
        match &self.value {
            NodeValue::Map(entries) => entries.iter().find(|e| e.key == key),
            _ => None,
        }
    }

    pub fn get(&self, key: &str) -> Option<&Node> {
        self.entry(key).map(|e| &e.value)
    }

    /// The text of a scalar node (quoted or plain), `None` for null, sequences and maps.
    pub fn as_str(&self) -> Option<&str> {
        self.value.as_str()
    }

    /// The number of entries of a map node (0 for anything else).
    pub fn entry_count(&self) -> usize {
        match &self.value {
            NodeValue::Map(entries) => entries.len(),
            _ => 0,
        }
    }

    pub fn items(&self) -> &[Node] {
        match &self.value {
            NodeValue::Seq(items) => items,
            _ => &[],
        }
    }

    /// Follows a field path such as `status.containerStatuses[0].state.waiting.reason` and returns the
    /// position a person would look at: the key's line for a map entry, the item's line for a list item.
    pub fn locate(&self, path: &str) -> Option<(Pos, &Node)> {
        let mut node = self;
        let mut pos = self.pos;
        for segment in path_segments(path) {
            match segment {
                Segment::Key(key) => {
                    let entry = node.entry(key)?;
                    pos = entry.key_pos;
                    node = &entry.value;
                }
                Segment::Index(i) => {
                    node = node.items().get(i)?;
                    pos = node.pos;
                }
            }
        }
        Some((pos, node))
    }

    /// Removes the field at `path` (a map entry), or empties a list item in place (so the indices
    /// of its siblings, which evidence paths use, do not shift). False when there is no such field.
    pub fn remove(&mut self, path: &str) -> bool {
        let segments: Vec<Segment<'_>> = path_segments(path).collect();
        let Some((last, parents)) = segments.split_last() else {
            return false;
        };
        let mut node = self;
        for segment in parents {
            let next = match (segment, &mut node.value) {
                (Segment::Key(key), NodeValue::Map(entries)) => {
                    entries.iter_mut().find(|e| e.key == *key).map(|e| &mut e.value)
                }
                (Segment::Index(i), NodeValue::Seq(items)) => items.get_mut(*i),
                _ => None,
            };
            match next {
                Some(next) => node = next,
                None => return false,
            }
        }
        match (last, &mut node.value) {
            (Segment::Key(key), NodeValue::Map(entries)) => {
                let before = entries.len();
                let mut kept = std::mem::take(entries).into_vec();
                kept.retain(|e| e.key != *key);
                *entries = kept.into_boxed_slice();
                entries.len() != before
            }
            (Segment::Index(i), NodeValue::Seq(items)) => match items.get_mut(*i) {
                Some(item) => {
                    item.value = NodeValue::Map(Box::default());
                    true
                }
                None => false,
            },
            _ => false,
        }
    }

    /// The number of nodes in this tree, for budgets.
    pub fn size(&self) -> usize {
        1 + match &self.value {
            NodeValue::Seq(items) => items.iter().map(Node::size).sum(),
            NodeValue::Map(entries) => entries.iter().map(|e| e.value.size()).sum(),
            _ => 0,
        }
    }
}

/// Builds a positioned map node: the describe and table readers make trees shaped like the object's
/// YAML, each value at the line it was read from.
pub struct MapBuilder {
    pos: Pos,
    entries: Vec<MapEntry>,
}

impl MapBuilder {
    pub fn new(pos: Pos) -> Self {
        Self {
            pos,
            entries: Vec::new(),
        }
    }

    pub fn pos(&self) -> Pos {
        self.pos
    }

    pub fn put(&mut self, key: &str, value: Node, key_pos: Pos) {
        self.entries.push(MapEntry {
            key: key.into(),
            key_pos,
            value,
        });
    }

    /// A string value (quoted: never re-read as a number or a boolean).
    pub fn str(&mut self, key: &str, value: &str, pos: Pos) {
        self.put(
            key,
            Node::new(NodeValue::scalar(value, ScalarStyle::Quoted), pos),
            pos,
        );
    }

    /// A plain value: numbers and booleans (`restartCount: 7`, `ready: false`).
    pub fn plain(&mut self, key: &str, value: &str, pos: Pos) {
        self.put(
            key,
            Node::new(NodeValue::scalar(value, ScalarStyle::Plain), pos),
            pos,
        );
    }

    pub fn get(&self, key: &str) -> Option<&Node> {
        self.entries.iter().find(|e| e.key == key).map(|e| &e.value)
    }

    pub fn node(self) -> Node {
        Node::new(NodeValue::Map(self.entries.into()), self.pos)
    }
}

enum Segment<'a> {
    Key(&'a str),
    Index(usize),
}

/// Splits `a.b[2].c` into keys and indices. Keys containing dots are written in brackets with quotes:
/// `metadata.annotations["kubectl.kubernetes.io/last-applied-configuration"]`.
fn path_segments(path: &str) -> impl Iterator<Item = Segment<'_>> {
    let mut rest = path;
    std::iter::from_fn(move || loop {
        if rest.is_empty() {
            return None;
        }
        if let Some(after) = rest.strip_prefix('.') {
            rest = after;
            continue;
        }
        if let Some(after) = rest.strip_prefix("[\"") {
            let end = after.find("\"]")?;
            let key = &after[..end];
            rest = &after[end + 2..];
            return Some(Segment::Key(key));
        }
        if let Some(after) = rest.strip_prefix('[') {
            let end = after.find(']')?;
            let index = after[..end].parse().ok()?;
            rest = &after[end + 1..];
            return Some(Segment::Index(index));
        }
        // Bytes, not `find` with a char set: a path is looked up a hundred thousand times in an
        // analysis of a dump, and the generic char search was most of the splitting.
        let end = rest
            .bytes()
            .position(|b| b == b'.' || b == b'[')
            .unwrap_or(rest.len());
        let key = &rest[..end];
        rest = &rest[end..];
        return Some(Segment::Key(key));
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scalar(s: &str, line: u32) -> Node {
        Node::new(NodeValue::scalar(s, ScalarStyle::Plain), Pos::new(line, 5))
    }

    #[test]
    fn locate_follows_keys_and_indices_to_the_key_line() {
        let waiting = Node::new(
            NodeValue::Map(Box::new([MapEntry {
                key: "reason".into(),
                key_pos: Pos::new(9, 3),
                value: scalar("ErrImagePull", 9),
            }])),
            Pos::new(9, 3),
        );
        let item = Node::new(
            NodeValue::Map(Box::new([MapEntry {
                key: "waiting".into(),
                key_pos: Pos::new(8, 3),
                value: waiting,
            }])),
            Pos::new(7, 3),
        );
        let root = Node::new(
            NodeValue::Map(Box::new([MapEntry {
                key: "statuses".into(),
                key_pos: Pos::new(6, 1),
                value: Node::new(NodeValue::Seq(Box::new([item])), Pos::new(7, 1)),
            }])),
            Pos::new(6, 1),
        );
        let (pos, node) = root.locate("statuses[0].waiting.reason").unwrap();
        assert_eq!(pos, Pos::new(9, 3));
        assert_eq!(node.as_str(), Some("ErrImagePull"));
        assert_eq!(root.locate("statuses[0]").unwrap().0, Pos::new(7, 3));
        assert!(root.locate("statuses[1]").is_none());
        assert!(root.locate("statuses[0].running").is_none());
    }

    #[test]
    fn a_key_is_made_once_and_shared_whatever_else_is_looked_up_between() {
        let mut keys = Keys::default();
        let name = keys.get("name");
        // Keys that fall into the same slot of the small table, or not, and a long one.
        let others: Vec<&str> = vec!["namf", "mame", "", "app.kubernetes.io/instance", "nAme"];
        for other in &others {
            assert_eq!(keys.get(other).as_str(), *other);
        }
        for (i, &text) in ["name"].iter().chain(&others).enumerate().cycle().take(60) {
            let again = keys.get(text);
            assert_eq!(again.as_str(), text, "round {i}");
        }
        assert!(Key::ptr_eq(&name, &keys.get("name")));
        let long = keys.get("app.kubernetes.io/instance");
        assert!(Key::ptr_eq(&long, &keys.get("app.kubernetes.io/instance")));
        assert!(!Key::ptr_eq(&name, &keys.get("nAme")));
    }

    /// Every reader gives the entries of one key one shared text: the YAML and JSON readers, and a
    /// List's items in their binary form between workers.
    #[test]
    fn the_readers_share_each_key_across_a_dump() {
        fn names<'n>(node: &'n Node, out: &mut Vec<&'n Key>) {
            match &node.value {
                NodeValue::Map(entries) => {
                    for entry in entries.iter() {
                        if entry.key == "name" {
                            out.push(&entry.key);
                        }
                        names(&entry.value, out);
                    }
                }
                NodeValue::Seq(items) => items.iter().for_each(|i| names(i, out)),
                _ => {}
            }
        }
        fn shared(root: &Node) -> usize {
            let mut found = Vec::new();
            names(root, &mut found);
            assert!(found.iter().all(|k| Key::ptr_eq(k, found[0])));
            found.len()
        }
        for root in dumps_read_three_ways() {
            assert!(shared(&root) > 20);
        }
    }

    /// gen-dump.py's YAML read by the YAML reader, its JSON by the JSON reader, and the JSON's
    /// items in the binary form reader workers send them in, read back.
    fn dumps_read_three_ways() -> [Node; 3] {
        let yaml = include_str!("../../../tests/fixtures/ingest/gen-dump-6-pods.yaml");
        let yaml = crate::yaml::parse_documents(yaml, 1)
            .pop()
            .unwrap()
            .result
            .unwrap()
            .unwrap();
        let json = include_str!("../../../tests/fixtures/split/dump-8.json");
        let json = crate::json::parse_documents(json, 1)
            .pop()
            .unwrap()
            .result
            .unwrap();
        let items = json.get("items").unwrap().items();
        let decoded = crate::split::decode_items(&crate::split::encode_items(items)).unwrap();
        let decoded = Node::new(NodeValue::Seq(decoded.into_boxed_slice()), Pos::new(1, 1));
        [yaml, json, decoded]
    }

    #[test]
    fn a_long_value_is_shared_and_equals_the_same_text_held_inline() {
        let mut keys = Keys::default();
        let path = "/var/run/secrets/kubernetes.io/serviceaccount";
        let a = NodeValue::scalar_in(path, ScalarStyle::Plain, &mut keys);
        let b = NodeValue::scalar_in(path, ScalarStyle::Quoted, &mut keys);
        let (NodeValue::Shared(a_text), NodeValue::Shared(b_text)) = (&a, &b) else {
            panic!("a long string is shared: {a:?}, {b:?}");
        };
        assert!(Key::ptr_eq(a_text, b_text));
        assert_eq!(a.as_str(), Some(path));
        // The same text held inline (as a builder without a reader's keys makes it) is equal.
        assert_eq!(a, NodeValue::Scalar(path.into()));
        assert_eq!(NodeValue::Scalar(path.into()), b);
        assert_ne!(a, NodeValue::Quoted(path.into()));
        assert_ne!(
            a,
            NodeValue::scalar_in(
                "/var/run/secrets/kubernetes.io/other",
                ScalarStyle::Plain,
                &mut keys
            )
        );
        // Short strings stay inline; a long quoted number stays a quoted string.
        assert!(matches!(
            NodeValue::scalar_in("Running", ScalarStyle::Plain, &mut keys),
            NodeValue::Scalar(_)
        ));
        let digits = "1234567890123456789012345678901234567890";
        assert_eq!(
            NodeValue::scalar_in(digits, ScalarStyle::Quoted, &mut keys),
            NodeValue::Quoted(digits.into())
        );
        assert!(matches!(
            NodeValue::scalar_in(digits, ScalarStyle::Plain, &mut keys),
            NodeValue::Shared(_)
        ));
        // Values that fall into the same slot of the table at hand, or not, looked up in turn.
        let values = [
            "ip-10-0-0-15.ec2.internal",
            "ip-10-0-0-30.ec2.internal",
            "ip-10-0-0-15.ec2.internal ",
            "node.kubernetes.io/unreachable",
            path,
        ];
        let first: Vec<Key> = values.iter().map(|v| keys.value(v)).collect();
        for (i, v) in values.iter().enumerate().cycle().take(40) {
            let again = keys.value(v);
            assert_eq!(again.as_str(), *v);
            assert!(Key::ptr_eq(&again, &first[i]), "{v}");
        }
        assert!(Key::ptr_eq(a_text, &keys.value(path)));
    }

    /// Every reader gives the equal long values of a dump one shared text (the service account's
    /// mount path of every container), and typed decoding reads them as it reads any string.
    #[test]
    fn the_readers_share_each_long_value_across_a_dump() {
        const PATH: &str = "/var/run/secrets/kubernetes.io/serviceaccount";
        fn paths<'n>(node: &'n Node, out: &mut Vec<&'n NodeValue>) {
            match &node.value {
                NodeValue::Map(entries) => entries.iter().for_each(|e| paths(&e.value, out)),
                NodeValue::Seq(items) => items.iter().for_each(|i| paths(i, out)),
                value if value.as_str() == Some(PATH) => out.push(value),
                _ => {}
            }
        }
        fn shared(root: &Node) -> usize {
            let mut found = Vec::new();
            paths(root, &mut found);
            let texts: Vec<&Key> = found
                .iter()
                .map(|v| match v {
                    NodeValue::Shared(text) => text,
                    other => panic!("a long value held as {other:?}"),
                })
                .collect();
            assert!(texts.iter().all(|t| Key::ptr_eq(t, texts[0])));
            texts.len()
        }
        for root in dumps_read_three_ways() {
            assert!(shared(&root) >= 12);
        }
        // The general YAML parser (a flow mapping sends a text to it) shares them too.
        let flow = format!("a: {{x: 1}}\nb:\n- {PATH}\n- {PATH}\n");
        let root = crate::yaml::parse_documents(&flow, 1)
            .pop()
            .unwrap()
            .result
            .unwrap()
            .unwrap();
        assert_eq!(shared(&root), 2);
        let items: Vec<String> = crate::decode::decode(root.get("b").unwrap()).unwrap();
        assert_eq!(items, [PATH, PATH]);
    }

    /// The documents of one `---`-separated text share their keys too, as a List's items do.
    #[test]
    fn the_documents_of_one_yaml_text_share_their_keys() {
        let text = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: a\n---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: b\n";
        let docs = crate::yaml::parse_documents(text, 1);
        let keys: Vec<&Key> = docs
            .iter()
            .map(|d| {
                let root = d.result.as_ref().unwrap().as_ref().unwrap();
                let NodeValue::Map(entries) = &root.get("metadata").unwrap().value else {
                    panic!("metadata is a map");
                };
                &entries[0].key
            })
            .collect();
        assert_eq!(keys.len(), 2);
        assert_eq!(keys[0].as_str(), "name");
        assert!(Key::ptr_eq(keys[0], keys[1]));
    }

    #[test]
    fn bracketed_keys_may_contain_dots() {
        let segments: Vec<_> = path_segments(r#"metadata.annotations["a.b/c"].x[3]"#)
            .map(|s| match s {
                Segment::Key(k) => k.to_string(),
                Segment::Index(i) => format!("#{i}"),
            })
            .collect();
        assert_eq!(segments, ["metadata", "annotations", "a.b/c", "x", "#3"]);
    }

    #[test]
    fn plain_scalars_resolve_like_the_core_schema() {
        assert_eq!(resolve_plain("true"), Resolved::Bool(true));
        assert_eq!(resolve_plain("~"), Resolved::Null);
        assert_eq!(resolve_plain("137"), Resolved::UInt(137));
        assert_eq!(resolve_plain("-1"), Resolved::Int(-1));
        assert_eq!(resolve_plain("0.5"), Resolved::Float(0.5));
        assert_eq!(resolve_plain("64Mi"), Resolved::Str("64Mi"));
        assert_eq!(resolve_plain("1.4.7"), Resolved::Str("1.4.7"));
        assert_eq!(resolve_plain("-"), Resolved::Str("-"));
    }
}
