//! Decoding a [`Node`] tree into typed objects (k8s-openapi) with serde.
//!
//! Going straight from the tree (rather than through `serde_json::Value`) lets decoding be lenient in
//! the ways real pastes need — a plain `8080` where a string is expected reads as the string "8080" —
//! and lets an error name the field path and the line it happened on.

use std::fmt;

use serde::de::{self, DeserializeSeed, IntoDeserializer, MapAccess, SeqAccess, Visitor};

use super::node::{resolve_plain, MapEntry, Node, NodeValue, Pos, Resolved};

/// Why a node could not be decoded into the type asked for, and where.
#[derive(Debug, Clone, PartialEq)]
pub struct DecodeError {
    pub message: String,
    /// The field path inside the object, such as `status.containerStatuses[0].restartCount`.
    pub path: String,
    pub pos: Option<Pos>,
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            write!(f, "{}", self.message)
        } else {
            write!(f, "{}: {}", self.path, self.message)
        }
    }
}

impl std::error::Error for DecodeError {}

impl de::Error for DecodeError {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        Self {
            message: msg.to_string(),
            path: String::new(),
            pos: None,
        }
    }
}

impl DecodeError {
    fn at(mut self, pos: Pos) -> Self {
        self.pos.get_or_insert(pos);
        self
    }

    fn under(mut self, segment: &str) -> Self {
        self.path = match (self.path.is_empty(), self.path.starts_with('[')) {
            (true, _) => segment.to_string(),
            (false, true) => format!("{segment}{}", self.path),
            (false, false) => format!("{segment}.{}", self.path),
        };
        self
    }
}

/// Decodes `node` into `T`.
pub fn decode<'de, T: de::Deserialize<'de>>(node: &'de Node) -> Result<T, DecodeError> {
    T::deserialize(NodeDeserializer(node)).map_err(|e| e.at(node.pos))
}

#[derive(Clone, Copy)]
struct NodeDeserializer<'de>(&'de Node);

impl<'de> NodeDeserializer<'de> {
    fn invalid(&self, expected: &str) -> DecodeError {
        let found = match &self.0.value {
            NodeValue::Null => "null".to_string(),
            NodeValue::Scalar(_) | NodeValue::Shared(_) | NodeValue::Quoted(_) => {
                format!("{:?}", self.0.value.as_str().unwrap_or_default())
            }
            NodeValue::Seq(_) => "a list".to_string(),
            NodeValue::Map(_) => "a map".to_string(),
        };
        DecodeError {
            message: format!("expected {expected}, found {found}"),
            path: String::new(),
            pos: Some(self.0.pos),
        }
    }

    fn scalar(&self) -> Option<&'de str> {
        self.0.value.as_str()
    }
}

macro_rules! number {
    ($method:ident, $visit:ident, $ty:ty) => {
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DecodeError> {
            match self.scalar().map(|s| s.trim().parse::<$ty>()) {
                Some(Ok(v)) => visitor.$visit(v),
                _ => Err(self.invalid(stringify!($ty))),
            }
        }
    };
}

impl<'de> de::Deserializer<'de> for NodeDeserializer<'de> {
    type Error = DecodeError;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DecodeError> {
        match &self.0.value {
            NodeValue::Null => visitor.visit_unit(),
            NodeValue::Quoted(s) => visitor.visit_borrowed_str(s),
            NodeValue::Scalar(_) | NodeValue::Shared(_) => {
                let s = self.0.value.plain_str().unwrap_or_default();
                match resolve_plain(s) {
                    Resolved::Null => visitor.visit_unit(),
                    Resolved::Bool(b) => visitor.visit_bool(b),
                    Resolved::Int(i) => visitor.visit_i64(i),
                    Resolved::UInt(u) => visitor.visit_u64(u),
                    Resolved::Float(f) => visitor.visit_f64(f),
                    Resolved::Str(_) => visitor.visit_borrowed_str(s),
                }
            }
            NodeValue::Seq(items) => visitor.visit_seq(Items {
                items: items.iter(),
                index: 0,
            }),
            NodeValue::Map(entries) => visitor.visit_map(Entries {
                entries: entries.iter(),
                current: None,
            }),
        }
    }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DecodeError> {
        match self.scalar().map(resolve_plain) {
            Some(Resolved::Bool(b)) => visitor.visit_bool(b),
            _ => Err(self.invalid("true or false")),
        }
    }

    number!(deserialize_i8, visit_i8, i8);
    number!(deserialize_i16, visit_i16, i16);
    number!(deserialize_i32, visit_i32, i32);
    number!(deserialize_i64, visit_i64, i64);
    number!(deserialize_u8, visit_u8, u8);
    number!(deserialize_u16, visit_u16, u16);
    number!(deserialize_u32, visit_u32, u32);
    number!(deserialize_u64, visit_u64, u64);
    number!(deserialize_f32, visit_f32, f32);
    number!(deserialize_f64, visit_f64, f64);

    fn deserialize_char<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DecodeError> {
        self.deserialize_str(visitor)
    }

    /// Any scalar reads as a string, whatever it would resolve to: `8080` and `true` are valid label
    /// values and messages when the field is a string.
    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DecodeError> {
        match self.scalar() {
            Some(s) => visitor.visit_borrowed_str(s),
            None => Err(self.invalid("a string")),
        }
    }

    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DecodeError> {
        self.deserialize_str(visitor)
    }

    fn deserialize_bytes<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DecodeError> {
        self.deserialize_any(visitor)
    }

    fn deserialize_byte_buf<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DecodeError> {
        self.deserialize_any(visitor)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DecodeError> {
        match &self.0.value {
            NodeValue::Null => visitor.visit_none(),
            _ => visitor.visit_some(self),
        }
    }

    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DecodeError> {
        visitor.visit_unit()
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, DecodeError> {
        visitor.visit_unit()
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, DecodeError> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DecodeError> {
        match &self.0.value {
            NodeValue::Seq(items) => visitor.visit_seq(Items {
                items: items.iter(),
                index: 0,
            }),
            // `[]` written as null happens in hand-edited pastes; an empty list is what was meant.
            NodeValue::Null => visitor.visit_seq(Items {
                items: [].iter(),
                index: 0,
            }),
            _ => Err(self.invalid("a list")),
        }
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value, DecodeError> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, DecodeError> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DecodeError> {
        match &self.0.value {
            NodeValue::Map(entries) => visitor.visit_map(Entries {
                entries: entries.iter(),
                current: None,
            }),
            NodeValue::Null => visitor.visit_map(Entries {
                entries: [].iter(),
                current: None,
            }),
            _ => Err(self.invalid("a map")),
        }
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, DecodeError> {
        self.deserialize_map(visitor)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, DecodeError> {
        match self.scalar() {
            Some(s) => visitor.visit_enum(s.into_deserializer()),
            None => Err(self.invalid("one of the enum's names")),
        }
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DecodeError> {
        self.deserialize_str(visitor)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DecodeError> {
        visitor.visit_unit()
    }
}

struct Items<'de> {
    items: std::slice::Iter<'de, Node>,
    index: usize,
}

impl<'de> SeqAccess<'de> for Items<'de> {
    type Error = DecodeError;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, DecodeError> {
        let Some(node) = self.items.next() else {
            return Ok(None);
        };
        let index = self.index;
        self.index += 1;
        seed.deserialize(NodeDeserializer(node))
            .map(Some)
            .map_err(|e| e.at(node.pos).under(&format!("[{index}]")))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.items.len())
    }
}

struct Entries<'de> {
    entries: std::slice::Iter<'de, MapEntry>,
    current: Option<&'de MapEntry>,
}

impl<'de> MapAccess<'de> for Entries<'de> {
    type Error = DecodeError;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, DecodeError> {
        let Some(entry) = self.entries.next() else {
            return Ok(None);
        };
        self.current = Some(entry);
        let key: de::value::BorrowedStrDeserializer<'de, DecodeError> =
            de::value::BorrowedStrDeserializer::new(entry.key.as_str());
        seed.deserialize(key).map(Some).map_err(|e| e.at(entry.key_pos))
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, DecodeError> {
        let Some(entry) = self.current.take() else {
            return Err(de::Error::custom("a map value was asked for before its key"));
        };
        seed.deserialize(NodeDeserializer(&entry.value))
            .map_err(|e| e.at(entry.key_pos).under(&entry.key))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.entries.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::yaml::parse_documents;
    use k8s_openapi::api::core::v1::Pod;

    fn root(text: &str) -> Node {
        parse_documents(text, 1).remove(0).result.unwrap().unwrap()
    }

    #[test]
    fn decodes_a_pod_with_lenient_scalars() {
        let node = root(
            "kind: Pod\nmetadata:\n  name: web\n  labels:\n    port: 8080\n    on: true\nstatus:\n  containerStatuses:\n  - name: app\n    ready: false\n    restartCount: 3\n    image: nginx\n    imageID: \"\"\n",
        );
        let pod: Pod = decode(&node).unwrap();
        let labels = pod.metadata.labels.unwrap();
        assert_eq!(labels["port"], "8080");
        assert_eq!(labels["on"], "true");
        let status = &pod.status.unwrap().container_statuses.unwrap()[0];
        assert_eq!(status.restart_count, 3);
        assert!(!status.ready);
    }

    /// A quoted scalar stays a string whatever its text; a plain one is read as what it says. The
    /// fast YAML reader, saphyr-parser and the JSON reader build the same values.
    #[test]
    fn quoted_scalars_stay_strings_and_plain_ones_are_resolved() {
        let yaml = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  a: \"8080\"\n  b: 8080\n  c: \"true\"\n  d: true\n  e: \"\"\n  f: \"web\"\n  g: \"1.5\"\n  h: null\n";
        let json = r#"{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"},
  "data": {"a": "8080", "b": 8080, "c": "true", "d": true, "e": "", "f": "web", "g": "1.5", "h": null}}"#;
        let expected = serde_json::json!({
            "a": "8080", "b": 8080, "c": "true", "d": true, "e": "", "f": "web", "g": "1.5", "h": null
        });
        let read = |name: &str, text: &str| {
            let got = crate::ingest(&[crate::Source::new(name, text)]);
            got.objects[0].node.clone()
        };
        let general = crate::yaml::parse_chunk_generally(yaml, 1)
            .remove(0)
            .result
            .unwrap()
            .unwrap();
        for (reader, node) in [
            ("fast YAML", read("c.yaml", yaml)),
            ("JSON", read("c.json", json)),
            ("saphyr", general),
        ] {
            let data: serde_json::Value = decode(node.get("data").unwrap()).unwrap();
            assert_eq!(data, expected, "{reader}");
        }
        assert!(matches!(
            read("c.yaml", yaml).locate("data.a").unwrap().1.value,
            NodeValue::Quoted(_)
        ));
        assert!(matches!(
            read("c.yaml", yaml).locate("data.f").unwrap().1.value,
            NodeValue::Scalar(_)
        ));
    }

    #[test]
    fn a_type_error_names_the_field_path_and_line() {
        let node = root("kind: Pod\nmetadata:\n  name: web\nstatus:\n  containerStatuses:\n  - name: app\n    ready: false\n    restartCount: many\n    image: x\n    imageID: x\n");
        let err = decode::<Pod>(&node).unwrap_err();
        assert_eq!(err.path, "status.containerStatuses[0].restartCount");
        assert_eq!(err.pos.unwrap().line, 8);
        assert!(err.message.contains("many"), "{err}");
    }
}
