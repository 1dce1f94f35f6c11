//! Every message of every group: ids unique and well formed, both languages, every argument shown.

use faultline_engine::lang::Lang;
use faultline_engine::message::common;
use faultline_engine::message::{ArgValue, Message};
use faultline_engine::report::ObjectRef;

/// Whether a text has a Chinese character (CJK Unified Ideographs).
fn has_chinese(text: &str) -> bool {
    text.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c))
}

/// The string sentinels of a message's arguments, nested messages' included (`⟦name⟧`).
fn sentinels(message: &Message) -> Vec<String> {
    fn walk(value: &ArgValue<'_>, out: &mut Vec<String>) {
        match value {
            ArgValue::Str(s) if s.starts_with('⟦') => out.push(s.to_string()),
            ArgValue::Object(o) => out.push(o.name.to_string()),
            ArgValue::Message(m) => out.extend(sentinels(m)),
            ArgValue::List(items) => items.iter().for_each(|v| walk(v, out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    for (_, value) in message.args() {
        walk(&value, &mut out);
    }
    out
}

/// Every id is unique, names its group (`group.name`), and is lowercase kebab-case.
#[test]
fn every_id_is_unique_and_well_formed() {
    let ids = faultline_engine::messages::ids();
    let mut seen = std::collections::HashSet::new();
    for id in &ids {
        assert!(seen.insert(*id), "id {id} is declared twice");
        let (group, name) = id.split_once('.').unwrap_or_else(|| panic!("{id}: no group"));
        for part in [group, name] {
            assert!(
                !part.is_empty()
                    && part
                        .chars()
                        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '.'),
                "{id} is not kebab-case"
            );
        }
    }
    assert_eq!(ids.len(), faultline_engine::messages::samples().len());
}

/// Every message renders in both languages with every string argument in each: the same arguments
/// in both (the compiler checks that each is bound; this checks that each is shown), the Chinese
/// text in Chinese and the English one without any.
#[test]
fn every_message_has_both_languages_with_the_same_arguments() {
    for message in faultline_engine::messages::samples() {
        let id = message.id();
        let en = message.render(Lang::En);
        let zh = message.render(Lang::Zh);
        assert!(
            !en.trim().is_empty() && !zh.trim().is_empty(),
            "{id} renders empty"
        );
        for sentinel in sentinels(&message) {
            assert!(en.contains(&sentinel), "{id}: English lacks {sentinel}: {en}");
            assert!(zh.contains(&sentinel), "{id}: Chinese lacks {sentinel}: {zh}");
        }
        assert!(!has_chinese(&en), "{id}: Chinese in the English text: {en}");
        let words_only = sentinels(&message)
            .iter()
            .fold(zh.clone(), |text, s| text.replace(s.as_str(), ""));
        if id != "common.sample" && id != "common.time" && !words_only.trim().is_empty() {
            assert!(
                has_chinese(&words_only),
                "{id}: no Chinese in the Chinese text: {zh}"
            );
        }
    }
}

/// The JSON form other tools render from: `{"id", "args"}`, arguments typed (an object stays an
/// object, a nested message a message).
#[test]
fn a_message_serialises_as_its_id_and_typed_arguments() {
    let subject = ObjectRef {
        kind: "Pod".into(),
        namespace: Some("shop".into()),
        name: "web-0".into(),
        uid: None,
    };
    let message = Message::from(common::Msg::Symptom {
        summary: Box::new(
            common::Msg::CurrentnessUnknown {
                subject: subject.clone(),
            }
            .into(),
        ),
        cause: subject,
        rule: "image-pull-failed".into(),
    });
    let json = serde_json::to_value(&message).unwrap();
    assert_eq!(json["id"], "common.symptom");
    assert_eq!(json["args"]["cause"]["name"], "web-0");
    assert_eq!(json["args"]["rule"], "image-pull-failed");
    assert_eq!(json["args"]["summary"]["id"], "common.currentness-unknown");
    assert_eq!(json["args"]["summary"]["args"]["subject"]["namespace"], "shop");
    assert!(message.render(Lang::Zh).contains("这是一个症状"));
    assert!(message.render(Lang::En).contains("This is a symptom"));
}

/// An object whose name the input does not give is said in the text's language.
#[test]
fn a_nameless_object_is_said_in_each_language() {
    let nameless = ObjectRef {
        kind: "Pod".into(),
        namespace: Some("shop".into()),
        name: "".into(),
        uid: None,
    };
    let message = Message::from(common::Msg::CurrentnessUnknown { subject: nameless });
    assert!(message
        .render(Lang::En)
        .contains("a Pod in shop (its name is not in the input)"));
    assert!(message
        .render(Lang::Zh)
        .contains("命名空间 shop 中一个名称不详的 Pod"));
}

/// Kubernetes' own words are quoted as themselves: no text formats a string argument with Debug
/// (`{x:?}`), which would escape the quotes and backslashes inside it (`unknown field
/// \"retry_backof\"`). Every sample's string arguments hold a `"` and a `\`; each is shown verbatim,
/// English quotes it with ASCII double quotes and Chinese with “…”, never the other's.
#[test]
fn every_message_quotes_its_arguments_unescaped() {
    let escaped = |s: &str| format!("{s:?}");
    for message in faultline_engine::messages::samples() {
        let id = message.id();
        let en = message.render(Lang::En);
        let zh = message.render(Lang::Zh);
        for sentinel in sentinels(&message) {
            assert!(
                sentinel.contains('"') && sentinel.contains('\\'),
                "{id}: {sentinel}"
            );
            let debug = escaped(&sentinel);
            let debug = &debug[1..debug.len() - 1];
            for (lang, text) in [("English", &en), ("Chinese", &zh)] {
                assert!(
                    !text.contains(debug),
                    "{id}: the {lang} text escapes {sentinel}: {text}"
                );
                assert!(
                    text.contains(&sentinel),
                    "{id}: the {lang} text lacks {sentinel}: {text}"
                );
            }
            assert!(
                !en.contains(&format!("“{sentinel}")),
                "{id}: English quotes with “…”: {en}"
            );
            assert!(
                !zh.contains(&format!("\"{sentinel}")),
                "{id}: Chinese quotes with ASCII \"…\": {zh}"
            );
        }
    }
}
