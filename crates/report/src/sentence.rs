//! A sentence of the report: its words in the report's language and the message they are rendered
//! from, as one value. Every text the engine writes about the input — a finding's summary and what it
//! cannot establish, an input error, why lines were not read, the engine's timeline entries — is a
//! [`Sentence`], and [`crate::Report::sentences_mut`] visits each of them in one fixed order: to
//! render them in another language, to take their messages out, to carry their words to the page.
//! No list of sentence fields is kept anywhere else.

use std::fmt;
use std::ops::Deref;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::lang::Lang;
use crate::message::Message;

/// Words, and the message they say when the engine wrote them. In JSON a sentence is its words (a
/// string); a containing object writes the message beside it (`summary` and `message`), for tools
/// that render their own words, and never reads it back.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Sentence {
    text: String,
    message: Option<Message>,
}

impl Sentence {
    /// The engine's sentence, its words rendered later ([`Sentence::localize`], at the end of the
    /// analysis, once, in the report's language).
    pub fn new(message: impl Into<Message>) -> Self {
        Sentence {
            text: String::new(),
            message: Some(message.into()),
        }
    }

    /// The engine's sentence with its words in `lang` now.
    pub fn rendered(message: impl Into<Message>, lang: Lang) -> Self {
        let mut sentence = Sentence::new(message);
        sentence.localize(lang);
        sentence
    }

    /// Words that are the same in every language (what Kubernetes wrote, a path).
    pub fn words(text: impl Into<String>) -> Self {
        Sentence {
            text: text.into(),
            message: None,
        }
    }

    /// Words and the message they were rendered from (`None`: words of every language).
    pub fn from_parts(text: String, message: Option<Message>) -> Self {
        Sentence { text, message }
    }

    pub fn as_str(&self) -> &str {
        &self.text
    }

    pub fn message(&self) -> Option<&Message> {
        self.message.as_ref()
    }

    /// The message, taken out: the words stay.
    pub fn take_message(&mut self) -> Option<Message> {
        self.message.take()
    }

    /// Says the message again inside another (a symptom's note, history around a past failure):
    /// `wrap` gets the message and returns the new one. Words without a message stay as they are.
    pub fn wrap(&mut self, wrap: impl FnOnce(Message) -> Message) {
        if let Some(m) = self.message.take() {
            self.message = Some(wrap(m));
        }
    }

    /// Whether the engine wrote it (it has a message, so other languages can say it).
    pub fn is_engines(&self) -> bool {
        self.message.is_some()
    }

    /// Renders the words from the message in `lang` (words without a message stay).
    pub fn localize(&mut self, lang: Lang) {
        if let Some(m) = &self.message {
            self.text = m.render(lang);
        }
    }

    /// Puts words in, the message kept (the page applies the worker's words in another language).
    pub fn set_words(&mut self, text: String) {
        self.text = text;
    }
}

impl Deref for Sentence {
    type Target = str;
    fn deref(&self) -> &str {
        &self.text
    }
}

impl AsRef<str> for Sentence {
    fn as_ref(&self) -> &str {
        &self.text
    }
}

impl fmt::Display for Sentence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl PartialEq<str> for Sentence {
    fn eq(&self, other: &str) -> bool {
        self.text == other
    }
}

impl PartialEq<&str> for Sentence {
    fn eq(&self, other: &&str) -> bool {
        self.text == *other
    }
}

impl From<String> for Sentence {
    fn from(text: String) -> Self {
        Sentence::words(text)
    }
}

impl From<&str> for Sentence {
    fn from(text: &str) -> Self {
        Sentence::words(text)
    }
}

impl Serialize for Sentence {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.text)
    }
}

impl<'de> Deserialize<'de> for Sentence {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        String::deserialize(d).map(Sentence::words)
    }
}

/// The messages of some sentences, for the JSON key beside their words (`message`,
/// `cannot_establish_messages`): absent when none has one.
pub(crate) struct Messages<'a, I>(pub(crate) I)
where
    I: Iterator<Item = &'a Sentence> + Clone;

impl<'a, I> Serialize for Messages<'a, I>
where
    I: Iterator<Item = &'a Sentence> + Clone,
{
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.clone().filter_map(Sentence::message))
    }
}
