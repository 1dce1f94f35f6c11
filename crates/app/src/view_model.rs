//! Report -> display strings, as plain functions tested natively (the components only lay them out).

use faultline_engine::InputSummary;

/// "1 document · Pod 1, Event 6", "2 documents · nothing read", "not analysed (container log)".
pub fn input_counts(input: &InputSummary) -> String {
    if input.format == "container-log" {
        return "container log: not analysed".to_string();
    }
    let documents = plural(input.documents, "document", "documents");
    let kinds: Vec<String> = input
        .kinds
        .iter()
        .map(|(kind, n)| format!("{kind} {n}"))
        .collect();
    if kinds.is_empty() {
        format!("{documents} · no objects")
    } else {
        format!("{documents} · {}", kinds.join(", "))
    }
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input(format: &str, documents: usize, kinds: &[(&str, usize)]) -> InputSummary {
        InputSummary {
            source: "x".into(),
            format: format.into(),
            documents,
            objects: kinds.iter().map(|(_, n)| n).sum(),
            kinds: kinds.iter().map(|(k, n)| (k.to_string(), *n)).collect(),
        }
    }

    #[test]
    fn counts_read_naturally() {
        assert_eq!(
            input_counts(&input("yaml", 1, &[("Pod", 1)])),
            "1 document · Pod 1"
        );
        assert_eq!(
            input_counts(&input("mixed", 3, &[("Event", 6), ("Pod", 2)])),
            "3 documents · Event 6, Pod 2"
        );
        assert_eq!(
            input_counts(&input("unrecognized", 0, &[])),
            "0 documents · no objects"
        );
        assert_eq!(
            input_counts(&input("container-log", 0, &[])),
            "container log: not analysed"
        );
    }
}
