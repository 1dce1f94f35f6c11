//! Token families recognisable by their prefix and shape alone, wherever they are: a table, one row
//! per family with where its format is documented, read by one matcher (`token_at`). Adding a
//! family is adding a row. Most formats are gitleaks' rules now (`gitleaks.rs`); these are the few
//! it lacks.

/// What a token's body (after its prefix) may hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Body {
    /// `A-Z`, `0-9`.
    UpperDigits,
    /// `A-Z`, `a-z`, `0-9`.
    Alnum,
    /// ASCII letters only.
    Letters,
    /// Letters, digits, `_`.
    AlnumUnderscore,
    /// Letters, digits, `-`.
    AlnumDash,
    /// base64url: letters, digits, `-`, `_`.
    Base64Url,
    /// base64url and `.` (several dot-separated parts).
    Base64UrlDots,
    /// Letters, digits and `/` (a path of ids).
    Path,
}

impl Body {
    fn allows(self, b: u8) -> bool {
        match self {
            Body::UpperDigits => b.is_ascii_uppercase() || b.is_ascii_digit(),
            Body::Alnum => b.is_ascii_alphanumeric(),
            Body::Letters => b.is_ascii_alphabetic(),
            Body::AlnumUnderscore => b.is_ascii_alphanumeric() || b == b'_',
            Body::AlnumDash => b.is_ascii_alphanumeric() || b == b'-',
            Body::Base64Url => b.is_ascii_alphanumeric() || b == b'-' || b == b'_',
            Body::Base64UrlDots => b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'),
            Body::Path => b.is_ascii_alphanumeric() || b == b'/',
        }
    }
}

/// One family of tokens.
#[derive(Clone, Copy, Debug)]
pub struct TokenFamily {
    /// The family's name, in the style of gitleaks' rule ids: what a hit and its token are called.
    pub id: &'static str,
    pub prefix: &'static [u8],
    pub body: Body,
    /// The body's length: at least `min`, and exactly `min` when `exact`.
    pub min: usize,
    pub exact: bool,
    /// The prefix is not secret (a host and path before the secret part): only the body is replaced.
    pub keep_prefix: bool,
    /// Where the format is documented.
    pub source: &'static str,
}

const fn family(
    id: &'static str,
    prefix: &'static [u8],
    body: Body,
    min: usize,
    exact: bool,
    source: &'static str,
) -> TokenFamily {
    TokenFamily {
        id,
        prefix,
        body,
        min,
        exact,
        keep_prefix: false,
        source,
    }
}

/// Every family, longest prefix first where one prefix starts another. Only the formats gitleaks'
/// rule set (`gitleaks.rs`) has no rule for: it covers the rest (AWS, Google API keys, GitHub,
/// GitLab, Slack, Stripe keys, npm, SendGrid, Hugging Face, Vault service and batch tokens, …).
pub const FAMILIES: &[TokenFamily] = &[
    // gitleaks' `aws-access-token` reads only base32 ids (`[A-Z2-7]`), as AWS mints them; ids
    // pasted in documentation and tests often have other digits, and are redacted too.
    family("aws-access-token", b"AKIA", Body::UpperDigits, 16, true, "AWS IAM access key ids: docs.aws.amazon.com/IAM/latest/UserGuide/reference_identifiers.html#identifiers-unique-ids"),
    family("aws-access-token", b"ASIA", Body::UpperDigits, 16, true, "AWS STS temporary access key ids: docs.aws.amazon.com/IAM/latest/UserGuide/reference_identifiers.html#identifiers-unique-ids"),
    family("google-oauth-access-token", b"ya29.", Body::Base64UrlDots, 20, false, "Google OAuth 2.0 access tokens: developers.google.com/identity/protocols/oauth2"),
    family("stripe-webhook-secret", b"whsec_", Body::Alnum, 24, false, "Stripe webhook signing secrets: docs.stripe.com/webhooks#verify-events"),
    family("dockerhub-pat", b"dckr_pat_", Body::Base64Url, 20, false, "Docker Hub personal access tokens: docs.docker.com/security/for-developers/access-tokens"),
    family("vault-recovery-token", b"hvr.", Body::Base64Url, 24, false, "HashiCorp Vault recovery tokens: developer.hashicorp.com/vault/docs/concepts/tokens#token-prefixes"),
];

/// For each byte, the families whose prefix starts with it, as bits of indices into [`FAMILIES`]:
/// a word is compared with those only (a word starting with `n` with npm's prefix alone), and every
/// word whose first byte has none is stepped over whole.
pub static BY_FIRST_BYTE: [u64; 256] = {
    assert!(FAMILIES.len() <= 64);
    let mut table = [0u64; 256];
    let mut i = 0;
    while i < FAMILIES.len() {
        table[FAMILIES[i].prefix[0] as usize] |= 1 << i;
        i += 1;
    }
    table
};

/// The span of the token that starts at `i`, if one does, with its family's id: the whole token, or
/// only its body when its family keeps the prefix. A token of an exact length is read at most one byte past it, and a longer
/// one to the end of its body: no byte is read twice for one start.
pub fn token_at(bytes: &[u8], i: usize) -> Option<(&'static str, usize, usize)> {
    let rest = &bytes[i..];
    let mut candidates = BY_FIRST_BYTE[usize::from(*rest.first()?)];
    while candidates != 0 {
        let family = &FAMILIES[candidates.trailing_zeros() as usize];
        candidates &= candidates - 1;
        if !rest.starts_with(family.prefix) {
            continue;
        }
        let from = i + family.prefix.len();
        let limit = if family.exact {
            bytes.len().min(from + family.min + 1)
        } else {
            bytes.len()
        };
        let mut end = from;
        while end < limit && family.body.allows(bytes[end]) {
            end += 1;
        }
        // A body that ends in dots ends a sentence, not the token.
        while family.body == Body::Base64UrlDots && end > from && bytes[end - 1] == b'.' {
            end -= 1;
        }
        let len = end - from;
        let fits = if family.exact {
            len == family.min
        } else {
            len >= family.min
        };
        if fits {
            return Some((family.id, if family.keep_prefix { from } else { i }, end));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_family_says_where_it_is_documented_and_matches_an_example() {
        for family in FAMILIES {
            assert!(family.source.contains('.'), "{:?}", family.prefix);
            let body: Vec<u8> = (0..family.min)
                .map(|n| match family.body {
                    Body::UpperDigits => b'A' + (n % 26) as u8,
                    Body::Path if n % 9 == 8 => b'/',
                    _ => b'a' + (n % 26) as u8,
                })
                .collect();
            let token = [family.prefix, &body[..]].concat();
            let text = [b"x ", &token[..], b" y"].concat();
            let start = if family.keep_prefix {
                2 + family.prefix.len()
            } else {
                2
            };
            assert_eq!(
                token_at(&text, 2),
                Some((family.id, start, 2 + token.len())),
                "{:?}",
                family.prefix
            );
            // One byte short is not a token.
            let short = [b"x ", &token[..token.len() - 1], b" y"].concat();
            assert_eq!(token_at(&short, 2), None, "{:?}", family.prefix);
        }
    }
}
