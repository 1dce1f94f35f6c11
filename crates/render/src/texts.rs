//! A report's texts in one language, apart from the report (issue 24). The engine writes each of its
//! sentences as a message and renders them at the end of the analysis in the job's language; the page
//! cannot render a message (it links neither the rules nor their words: the engine's wasm is the
//! worker's), so in another language it gets the texts from who can: the worker renders the report
//! it made again (the worker's `job::localize`), and the app's `build.rs` precomputes the built-in
//! samples' texts in every language. The page puts them into the report it shows ([`Texts::apply`]).
//!
//! A text is addressed by its sentence's place in [`Report::sentences`]: the one order of a report's
//! sentences, the same in the worker's report and in the page's copy without messages.

use faultline_report::message::Message;
use faultline_report::{Lang, Report};
use serde::{Deserialize, Serialize};

/// The texts of a report's sentences that have a message, in `lang`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Texts {
    #[serde(with = "lang_tag")]
    pub lang: Lang,
    /// In the order of their sentences.
    pub texts: Vec<Said>,
}

/// The words of one sentence: its place in [`Report::sentences`] and its text.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Said {
    #[serde(rename = "i")]
    pub index: u32,
    #[serde(rename = "t")]
    pub text: String,
}

/// The messages of `report`, each with its sentence's place: what the worker keeps of a report to
/// render it again in another language.
pub fn messages(report: &Report) -> Vec<(u32, Message)> {
    let mut out = Vec::new();
    let mut index = 0u32;
    report.sentences(&mut |s| {
        if let Some(m) = s.message() {
            out.push((index, m.clone()));
        }
        index += 1;
    });
    out
}

impl Texts {
    /// `messages` ([`messages`]) rendered in `lang`.
    pub fn of(messages: &[(u32, Message)], lang: Lang) -> Texts {
        let texts = messages
            .iter()
            .map(|(index, m)| Said {
                index: *index,
                text: m.render(lang),
            })
            .collect();
        Texts { lang, texts }
    }

    /// The texts of `report`, rendered in `lang` from its messages (the report itself is not
    /// changed). A sentence without a message is its own in every language and has no text here.
    pub fn render(report: &Report, lang: Lang) -> Texts {
        Texts::of(&messages(report), lang)
    }

    /// Adds a later part of the same texts ([`crate::protocol::Reply::Texts`]).
    pub fn merge(&mut self, part: Texts) {
        self.lang = part.lang;
        self.texts.extend(part.texts);
    }

    /// About how many bytes these texts are in JSON (the worker's parts).
    pub fn bytes(&self) -> usize {
        self.texts.iter().map(|s| s.text.len() + 16).sum()
    }

    /// Puts the texts into `report`, the report they were rendered from (as the page holds it,
    /// without its messages). Texts for sentences the report does not have are ignored.
    pub fn apply(&self, report: &mut Report) {
        let mut texts = self.texts.iter().peekable();
        let mut index = 0u32;
        report.sentences_mut(&mut |s| {
            while texts.next_if(|t| t.index < index).is_some() {}
            if let Some(t) = texts.next_if(|t| t.index == index) {
                s.set_words(t.text.clone());
            }
            index += 1;
        });
    }

    /// A copy of `report` with these texts in it: [`Texts::apply`] to a copy.
    pub fn applied(&self, report: &Report) -> Report {
        let mut copy = report.clone();
        self.apply(&mut copy);
        copy
    }
}

/// A language as its tag in JSON (`"en"`, `"zh"`); an unknown tag reads as English.
pub mod lang_tag {
    use faultline_report::Lang;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(lang: &Lang, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(match lang {
            Lang::En => "en",
            Lang::Zh => "zh",
        })
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Lang, D::Error> {
        let tag = String::deserialize(d)?;
        Ok(Lang::parse(&tag).unwrap_or_default())
    }
}
