//! Every sentence the engine writes is a [`Message`]: a stable id and typed arguments, rendered in
//! English or Chinese at the edge ([`crate::Report::localize`], the renderings, the app's worker),
//! never formatted into words inside a rule. Rules choose what to say; this module's renderers choose
//! the words.
//!
//! The mechanism is a typed enum per rule (or per part of the engine), declared with [`messages!`]:
//! each variant names its id, its arguments with their types, and one text per language. The macro
//! generates one `match` per language, so a message without a Chinese text does not compile, and
//! every argument is bound in every language, so a text that leaves one out is an unused variable,
//! which `clippy -D warnings` refuses. Arguments keep their types into the JSON report (`{"id",
//! "args"}`): an object reference stays an object, a nested message stays a message.
//!
//! A text is a format string whose `{name}`s are the arguments, or a block that returns a `String`
//! (for a plural, or a part that depends on an argument), in which each argument is an [`In`] (its
//! value is `.0`).

pub mod common;

use std::any::Any;
use std::fmt;

use serde::ser::{SerializeMap, Serializer};
use serde::Serialize;

use crate::lang::Lang;
use crate::{ObjectRef, Text};

/// Declares a rule's (or a module's) messages: an enum whose variants are `Name { field: Type, … } =
/// "id" { en: TEXT, zh: TEXT }`, with TEXT a format string over the fields or a block returning a
/// `String`. See the module's documentation.
#[macro_export]
macro_rules! messages {
    ($(#[$meta:meta])* $vis:vis enum $name:ident {
        $( $(#[$vmeta:meta])* $variant:ident { $($field:ident : $ty:ty),* $(,)? } = $id:literal {
            en: $en:tt,
            zh: $zh:tt $(,)?
        } ),* $(,)?
    }) => {
        $(#[$meta])*
        #[derive(Clone, Debug, PartialEq, Eq)]
        $vis enum $name {
            $( $(#[$vmeta])* $variant { $($field: $ty),* } ),*
        }

        #[allow(unused_variables, clippy::redundant_locals)]
        impl $name {
            /// Every id of this enum, in declaration order.
            pub const IDS: &'static [&'static str] = &[$($id),*];

            pub fn id(&self) -> &'static str {
                match *self {
                    $( Self::$variant { .. } => $id ),*
                }
            }

            /// The message, boxed (an argument, or a field kept small).
            pub fn into_box(self) -> Box<$crate::message::Message> {
                Box::new(self.into())
            }

            /// The arguments by name, in declaration order.
            pub fn args(&self) -> Vec<(&'static str, $crate::message::ArgValue<'_>)> {
                match *self {
                    $( Self::$variant { $(ref $field),* } => vec![
                        $( (stringify!($field), $crate::message::Arg::value($field)) ),*
                    ] ),*
                }
            }

            pub fn put(&self, lang: $crate::lang::Lang, out: &mut dyn ::std::fmt::Write) -> ::std::fmt::Result {
                match *self {
                    $( Self::$variant { $(ref $field),* } => {
                        $( let $field = $crate::message::In($field, lang); )*
                        match lang {
                            $crate::lang::Lang::En => $crate::message_text!(out, $en),
                            $crate::lang::Lang::Zh => $crate::message_text!(out, $zh),
                        }
                    } ),*
                }
            }

            /// One message of each variant, its arguments made from their names
            /// ([`$crate::message::Arg::sample`]), for the tests that check every message.
            pub fn samples() -> Vec<Self> {
                vec![$( Self::$variant { $( $field: <$ty as $crate::message::Arg>::sample(stringify!($field)) ),* } ),*]
            }
        }

        #[allow(unreachable_code)]
        impl $crate::message::Sentence for $name {
            fn id(&self) -> &'static str {
                $name::id(self)
            }
            fn args(&self) -> Vec<(&'static str, $crate::message::ArgValue<'_>)> {
                $name::args(self)
            }
            fn put(&self, lang: $crate::lang::Lang, out: &mut dyn ::std::fmt::Write) -> ::std::fmt::Result {
                $name::put(self, lang, out)
            }
            fn clone_box(&self) -> ::std::boxed::Box<dyn $crate::message::Sentence> {
                ::std::boxed::Box::new(::std::clone::Clone::clone(self))
            }
            fn as_any(&self) -> &dyn ::std::any::Any {
                self
            }
            fn eq_dyn(&self, other: &dyn $crate::message::Sentence) -> bool {
                other.as_any().downcast_ref::<Self>() == Some(self)
            }
        }

        impl ::std::convert::From<$name> for $crate::message::Message {
            fn from(m: $name) -> Self {
                $crate::message::Message::new(m)
            }
        }
    };
}

/// A message's text in one language: a format string, or a block that returns a `String`.
#[doc(hidden)]
#[macro_export]
macro_rules! message_text {
    ($out:ident, $text:literal) => {
        write!($out, $text)
    };
    ($out:ident, $text:block) => {
        $out.write_str(&$text)
    };
}

/// An argument as it is written into the JSON report: a string, a number, an object reference, a
/// message or a list of them.
#[derive(Debug)]
pub enum ArgValue<'a> {
    Str(&'a str),
    Num(i64),
    Bool(bool),
    Object(&'a ObjectRef),
    Message(&'a Message),
    List(Vec<ArgValue<'a>>),
    None,
}

impl Serialize for ArgValue<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            ArgValue::Str(v) => s.serialize_str(v),
            ArgValue::Num(v) => s.serialize_i64(*v),
            ArgValue::Bool(v) => s.serialize_bool(*v),
            ArgValue::Object(v) => v.serialize(s),
            ArgValue::Message(v) => v.serialize(s),
            ArgValue::List(v) => v.serialize(s),
            ArgValue::None => s.serialize_none(),
        }
    }
}

/// A message's argument: how it is written in a language, and in the JSON report.
pub trait Arg {
    fn put(&self, lang: Lang, out: &mut dyn fmt::Write) -> fmt::Result;
    fn value(&self) -> ArgValue<'_>;
    /// A value made from the argument's name, recognisable in a rendering (the message tests).
    fn sample(name: &'static str) -> Self
    where
        Self: Sized;
}

/// An argument bound for a text: displays in the text's language. `.0` is the value.
pub struct In<'a, T: ?Sized>(pub &'a T, pub Lang);

impl<T: Arg + ?Sized> fmt::Display for In<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.put(self.1, f)
    }
}

impl<T: ?Sized> In<'_, T> {
    /// The text's language.
    pub fn lang(&self) -> Lang {
        self.1
    }
}

/// The sentinel a sample string argument carries (`⟦name"\⟧`). It holds a `"` and a `\`, the
/// characters a Debug format (`{x:?}`) would escape, so a text that quotes an argument with one
/// shows the sentinel escaped and the message tests fail: Kubernetes' words are quoted as they are.
pub fn sample_text(name: &str) -> String {
    format!("⟦{name}\"\\⟧")
}

impl Arg for String {
    fn put(&self, _: Lang, out: &mut dyn fmt::Write) -> fmt::Result {
        out.write_str(self)
    }
    fn value(&self) -> ArgValue<'_> {
        ArgValue::Str(self)
    }
    fn sample(name: &'static str) -> Self {
        sample_text(name)
    }
}

impl Arg for Text {
    fn put(&self, _: Lang, out: &mut dyn fmt::Write) -> fmt::Result {
        out.write_str(self)
    }
    fn value(&self) -> ArgValue<'_> {
        ArgValue::Str(self)
    }
    fn sample(name: &'static str) -> Self {
        sample_text(name).as_str().into()
    }
}

impl Arg for &'static str {
    fn put(&self, _: Lang, out: &mut dyn fmt::Write) -> fmt::Result {
        out.write_str(self)
    }
    fn value(&self) -> ArgValue<'_> {
        ArgValue::Str(self)
    }
    fn sample(name: &'static str) -> Self {
        // Leaked once per name in the tests only (samples are never made by an analysis).
        Box::leak(sample_text(name).into_boxed_str())
    }
}

macro_rules! number_arg {
    ($($t:ty),*) => {$(
        impl Arg for $t {
            fn put(&self, _: Lang, out: &mut dyn fmt::Write) -> fmt::Result {
                write!(out, "{self}")
            }
            fn value(&self) -> ArgValue<'_> {
                ArgValue::Num(i64::try_from(*self).unwrap_or(i64::MAX))
            }
            fn sample(name: &'static str) -> Self {
                // 2..=9 from the name: never 1, so an English plural is exercised.
                (name.len() % 8 + 2) as $t
            }
        }
    )*};
}
number_arg!(u8, u16, u32, u64, usize, i32, i64);

impl Arg for bool {
    fn put(&self, _: Lang, out: &mut dyn fmt::Write) -> fmt::Result {
        write!(out, "{self}")
    }
    fn value(&self) -> ArgValue<'_> {
        ArgValue::Bool(*self)
    }
    fn sample(_: &'static str) -> Self {
        true
    }
}

impl Arg for ObjectRef {
    fn put(&self, lang: Lang, out: &mut dyn fmt::Write) -> fmt::Result {
        match lang {
            Lang::En => write!(out, "{self}"),
            Lang::Zh if self.name.is_empty() => match &self.namespace {
                Some(ns) => write!(out, "命名空间 {ns} 中一个名称不详的 {}", self.kind),
                None => write!(out, "一个名称不详的 {}", self.kind),
            },
            Lang::Zh => write!(out, "{self}"),
        }
    }
    fn value(&self) -> ArgValue<'_> {
        ArgValue::Object(self)
    }
    fn sample(name: &'static str) -> Self {
        ObjectRef {
            kind: "Pod".into(),
            namespace: Some("shop".into()),
            name: sample_text(name).as_str().into(),
            uid: None,
        }
    }
}

impl Arg for Message {
    fn put(&self, lang: Lang, out: &mut dyn fmt::Write) -> fmt::Result {
        Message::put(self, lang, out)
    }
    fn value(&self) -> ArgValue<'_> {
        ArgValue::Message(self)
    }
    fn sample(name: &'static str) -> Self {
        Message::new(common::Msg::Sample {
            name: sample_text(name),
        })
    }
}

impl Arg for Box<Message> {
    fn put(&self, lang: Lang, out: &mut dyn fmt::Write) -> fmt::Result {
        Message::put(self, lang, out)
    }
    fn value(&self) -> ArgValue<'_> {
        ArgValue::Message(self)
    }
    fn sample(name: &'static str) -> Self {
        Box::new(Message::sample(name))
    }
}

/// An optional argument writes nothing when absent: a text that says something about it is a
/// block that looks at `.0`.
impl<T: Arg> Arg for Option<T> {
    fn put(&self, lang: Lang, out: &mut dyn fmt::Write) -> fmt::Result {
        match self {
            Some(v) => v.put(lang, out),
            None => Ok(()),
        }
    }
    fn value(&self) -> ArgValue<'_> {
        self.as_ref().map_or(ArgValue::None, Arg::value)
    }
    fn sample(name: &'static str) -> Self {
        Some(T::sample(name))
    }
}

/// A list: messages joined as clauses (`; `, `；`), other values as a list (`, `, `、`).
impl<T: Arg + ListItem> Arg for Vec<T> {
    fn put(&self, lang: Lang, out: &mut dyn fmt::Write) -> fmt::Result {
        let sep = T::separator(lang);
        for (i, v) in self.iter().enumerate() {
            if i > 0 {
                out.write_str(sep)?;
            }
            v.put(lang, out)?;
        }
        Ok(())
    }
    fn value(&self) -> ArgValue<'_> {
        ArgValue::List(self.iter().map(Arg::value).collect())
    }
    fn sample(name: &'static str) -> Self {
        vec![T::sample(name)]
    }
}

/// How a list of an argument type is joined.
pub trait ListItem {
    fn separator(lang: Lang) -> &'static str;
}

impl ListItem for Message {
    fn separator(lang: Lang) -> &'static str {
        match lang {
            Lang::En => "; ",
            Lang::Zh => "；",
        }
    }
}

macro_rules! listed_as_words {
    ($($t:ty),*) => {$(
        impl ListItem for $t {
            fn separator(lang: Lang) -> &'static str {
                match lang {
                    Lang::En => ", ",
                    Lang::Zh => "、",
                }
            }
        }
    )*};
}
listed_as_words!(String, Text, &'static str, ObjectRef, u32, usize);

/// What each group's enum (declared with [`messages!`]) is to the report: an id, typed arguments and
/// a text per language. A [`Message`] holds one of them, whatever its group, so this module does not
/// list the groups: a rule's messages live in the rule's file, in whichever crate holds the rule.
pub trait Sentence: fmt::Debug + Send + Sync + 'static {
    /// The stable id (`image-pull-failed.events-only`).
    fn id(&self) -> &'static str;
    /// The arguments by name, in declaration order.
    fn args(&self) -> Vec<(&'static str, ArgValue<'_>)>;
    /// Writes the sentence in `lang`.
    fn put(&self, lang: Lang, out: &mut dyn fmt::Write) -> fmt::Result;
    #[doc(hidden)]
    fn clone_box(&self) -> Box<dyn Sentence>;
    #[doc(hidden)]
    fn as_any(&self) -> &dyn Any;
    #[doc(hidden)]
    fn eq_dyn(&self, other: &dyn Sentence) -> bool;
}

/// A sentence of the report: an id and typed arguments, rendered in a language by
/// [`Message::render`]. Serialises as `{"id": "...", "args": {...}}`. Any group's enum converts into
/// one (`Msg::X { .. }.into()`); [`Message::get`] gives the group's value back.
pub struct Message(Box<dyn Sentence>);

impl Message {
    /// `sentence` as a message.
    pub fn new(sentence: impl Sentence) -> Self {
        Message(Box::new(sentence))
    }

    /// The group's value, when this message is of group `T`.
    pub fn get<T: Sentence>(&self) -> Option<&T> {
        self.0.as_any().downcast_ref::<T>()
    }

    /// The stable id (`image-pull-failed.events-only`).
    pub fn id(&self) -> &'static str {
        self.0.id()
    }

    pub fn args(&self) -> Vec<(&'static str, ArgValue<'_>)> {
        self.0.args()
    }

    /// Writes the message in `lang`.
    pub fn put(&self, lang: Lang, out: &mut dyn fmt::Write) -> fmt::Result {
        self.0.put(lang, out)
    }
}

impl Clone for Message {
    fn clone(&self) -> Self {
        Message(self.0.clone_box())
    }
}

impl PartialEq for Message {
    fn eq(&self, other: &Self) -> bool {
        self.0.eq_dyn(&*other.0)
    }
}

impl Eq for Message {}

impl fmt::Debug for Message {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl Message {
    /// The message in `lang`.
    pub fn render(&self, lang: Lang) -> String {
        let mut out = String::new();
        let _ = self.put(lang, &mut out);
        out
    }

    fn sample(name: &'static str) -> Message {
        <Message as Arg>::sample(name)
    }
}

impl Serialize for Message {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        struct Args<'a>(Vec<(&'static str, ArgValue<'a>)>);
        impl Serialize for Args<'_> {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                let mut map = s.serialize_map(Some(self.0.len()))?;
                for (k, v) in &self.0 {
                    map.serialize_entry(k, v)?;
                }
                map.end()
            }
        }
        let mut map = s.serialize_map(Some(2))?;
        map.serialize_entry("id", self.id())?;
        map.serialize_entry("args", &Args(self.args()))?;
        map.end()
    }
}

impl fmt::Display for Message {
    /// The English text (logs, test failures); a report's texts are rendered in its language.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.put(Lang::En, f)
    }
}
