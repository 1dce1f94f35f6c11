//! What names a secret (`DB_PASSWORD`, `api-token`, `SECRET_KEY_BASE`) and what is a value worth
//! redacting (not a placeholder, a reference or an already masked value).

/// Whether a key names a secret: its last word is `password`, `token`, `secret`, ... or it ends in
/// `api key`, `access key`, ... (`DB_PASSWORD`, `api-token`, `clientSecret`, `X-Api-Key`). Keys that
/// only mention one (`token-ttl`, `secretName`, `secretKeyRef`) are not.
pub fn is_secret_key(key: &str) -> bool {
    // `key.trim_matches(['"', '\'', '-', ' '])`, bytewise (the trimmed bytes are ASCII, so the cut
    // is a char boundary): the char-pattern trim was a tenth of scanning a paste of `key: value`
    // lines.
    let quote_dash_space = |b: &u8| matches!(b, b'"' | b'\'' | b'-' | b' ');
    let bytes = key.as_bytes();
    let lead = bytes.iter().take_while(|b| quote_dash_space(b)).count();
    let trail = bytes[lead..]
        .iter()
        .rev()
        .take_while(|b| quote_dash_space(b))
        .count();
    let key = &key[lead..key.len() - trail];
    if key.is_empty() || key.len() > 120 || is_reference_key(key) {
        return false;
    }
    // A Google service account's key file: the id of its private key is one of its credentials.
    if key.eq_ignore_ascii_case("private_key_id") {
        return true;
    }
    // Most keys end in none of the words below: their last three letters say so, cheaply (this runs
    // for every key of every line of a big paste). Each ending, and `client-key-data`, ends in one of
    // these; ASCII letters are lower-cased by setting bit 0x20, which leaves digits as they are.
    // (What is not an ASCII letter or digit is trimmed off the end first: bytewise, every byte of a
    // non-ASCII char is one.)
    let tail = key.as_bytes();
    let tail = &tail[..tail.len()
        - tail
            .iter()
            .rev()
            .take_while(|b| !b.is_ascii_alphanumeric())
            .count()];
    let Some(&[a, b, c]) = tail.get(tail.len().saturating_sub(3)..) else {
        return false;
    };
    if !matches!(
        &[a | 0x20, b | 0x20, c | 0x20],
        b"ord"
            | b"swd"
            | b"pwd"
            | b"ase"
            | b"ret"
            | b"ken"
            | b"key"
            | b"als"
            | b"ial"
            | b"ass"
            | b"ata"
            | b"kie"
    ) {
        return false;
    }
    // The last two words, as byte ranges of `key`: words split at anything not an ASCII letter or
    // digit, and where a lower-case letter or digit is followed by an upper-case one (camelCase).
    // Called for every key of every line of a big paste: no allocation.
    let bytes = key.as_bytes();
    let (mut last, mut before) = (None, None);
    let mut start = None;
    let mut prev_lower = false;
    let mut end_word = |start: &mut Option<usize>, at: usize| {
        if let Some(s) = start.take() {
            before = last;
            last = Some(&key[s..at]);
        }
    };
    for (i, &c) in bytes.iter().enumerate() {
        if !c.is_ascii_alphanumeric() {
            end_word(&mut start, i);
            prev_lower = false;
            continue;
        }
        if c.is_ascii_uppercase() && prev_lower {
            end_word(&mut start, i);
        }
        start.get_or_insert(i);
        prev_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
    }
    end_word(&mut start, bytes.len());
    let Some(last) = last else {
        return false;
    };
    const ENDINGS: [&str; 11] = [
        "password",
        "passwd",
        "passphrase",
        "secret",
        "token",
        "apikey",
        "accesskey",
        "secretkey",
        "privatekey",
        "credentials",
        "credential",
    ];
    let ends_with = |word: &str, ending: &str| {
        word.len() >= ending.len()
            && word.as_bytes()[word.len() - ending.len()..].eq_ignore_ascii_case(ending.as_bytes())
    };
    if ENDINGS.iter().any(|e| ends_with(last, e))
        || last.eq_ignore_ascii_case("pwd")
        || last.eq_ignore_ascii_case("pass")
    {
        return true;
    }
    if let Some(prev) = before {
        if SECRET_PAIRS
            .iter()
            .any(|(p, l)| prev.eq_ignore_ascii_case(p) && last.eq_ignore_ascii_case(l))
        {
            return true;
        }
    }
    // kubeconfig's `client-key-data`.
    key.eq_ignore_ascii_case("client-key-data")
}

/// Last two words that name a secret together, though the last alone does not (`API_KEY`, Rails'
/// `SECRET_KEY_BASE`, `RABBITMQ_ERLANG_COOKIE`).
const SECRET_PAIRS: [(&str, &str); 14] = [
    ("api", "key"),
    ("access", "key"),
    ("secret", "key"),
    ("private", "key"),
    ("signing", "key"),
    ("encryption", "key"),
    ("auth", "key"),
    ("master", "key"),
    ("account", "key"),
    ("storage", "key"),
    ("hmac", "key"),
    ("license", "key"),
    ("key", "base"),
    ("erlang", "cookie"),
];

/// Keys whose values name a secret rather than hold one: ingress-nginx's annotations
/// (`nginx.ingress.kubernetes.io/auth-secret: basic-auth` names the Secret holding the users).
/// `secretKey` is not one of them: under it MinIO's Helm values hold the secret key itself; the
/// External Secrets Operator's `secretKey: password` (the key of the Secret it writes) is told from
/// that by its structure (`structure::names`, and [`super::scan`]'s `remoteRef` beside it).
fn is_reference_key(key: &str) -> bool {
    const INGRESS: &str = "ingress.kubernetes.io/";
    // Most keys are shorter than that: no substring search set up for them.
    key.len() >= INGRESS.len() && key.contains(INGRESS)
}

/// Whether a value is worth redacting: not empty, not a placeholder (`<none>`, `<set to the key ...>`,
/// an existing `<redacted>`), not already masked (`***`, `xxxx`), not a reference (`$(VAR)`), not a
/// boolean or a describe size (`7 bytes`).
pub fn is_plausible_value(value: &str) -> bool {
    // `value.trim().trim_matches(['"', '\''])`, the quotes bytewise (this runs for every value).
    let v = value.trim();
    let quote = |b: &u8| matches!(b, b'"' | b'\'');
    let lead = v.bytes().take_while(quote).count();
    let trail = v.as_bytes()[lead..].iter().rev().take_while(|b| quote(b)).count();
    let v = &v[lead..v.len() - trail];
    if v.is_empty() || v.starts_with(['<', '{', '[']) || v.starts_with("$(") || v.starts_with("${") {
        return false;
    }
    if v.chars().all(|c| matches!(c, '*' | 'x' | 'X' | '•' | '.' | '-')) {
        return false;
    }
    if v.as_bytes()
        .windows(8)
        .any(|w| w.eq_ignore_ascii_case(b"redacted"))
    {
        return false;
    }
    if matches!(
        v,
        "true" | "false" | "True" | "False" | "null" | "~" | "yes" | "no" | "none" | "None" | "|" | ">"
    ) {
        return false;
    }
    if let Some(n) = v.strip_suffix(" bytes") {
        if n.bytes().all(|b| b.is_ascii_digit()) {
            return false;
        }
    }
    true
}
