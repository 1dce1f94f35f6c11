//! The languages Faultline speaks. A leaf: it imports nothing of the engine, so the rules (their
//! Chinese documentation), the renderings and the app can all name a language without depending on
//! each other.

/// The language of a report's texts (its messages rendered, [`crate::Report::localize`]), of a
/// rendering's own words (headings, labels) and of the rules' documentation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Lang {
    #[default]
    En,
    Zh,
}

impl Lang {
    pub const ALL: [Lang; 2] = [Lang::En, Lang::Zh];

    /// `en`, `zh`, `zh-CN`, `zh-TW` …; anything else is not a language we render.
    pub fn parse(tag: &str) -> Option<Lang> {
        let primary = tag
            .split(['-', '_'])
            .next()
            .unwrap_or_default()
            .to_ascii_lowercase();
        match primary.as_str() {
            "en" => Some(Lang::En),
            "zh" => Some(Lang::Zh),
            _ => None,
        }
    }

    /// The language for a browser's language tag: Chinese for `zh*`, English for anything else (a
    /// browser always has a language; we fall back rather than refuse, unlike [`Lang::parse`]).
    pub fn from_tag(tag: &str) -> Lang {
        if tag.trim().to_ascii_lowercase().starts_with("zh") {
            Lang::Zh
        } else {
            Lang::En
        }
    }

    /// The BCP 47 tag for `<html lang>`.
    pub fn tag(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Zh => "zh-CN",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Lang;

    #[test]
    fn tags_name_languages() {
        assert_eq!(Lang::parse("zh-TW"), Some(Lang::Zh));
        assert_eq!(Lang::parse("EN_us"), Some(Lang::En));
        assert_eq!(Lang::parse("fr"), None);
        assert_eq!(Lang::from_tag(" zh-Hans "), Lang::Zh);
        assert_eq!(Lang::from_tag("fr"), Lang::En);
        for lang in Lang::ALL {
            assert_eq!(Lang::parse(lang.tag()), Some(lang));
        }
    }
}
