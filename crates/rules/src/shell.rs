//! Shell quoting for the commands rules suggest (`next_steps`): they are copied with one click and
//! pasted into a shell, and every name in them came from the input. `kubectl describe pod NAME`
//! with a Pod named `web; rm -rf ~` must not run `rm`. Rules build commands with [`command!`], which
//! passes every value through [`ShellArg`]: a plain name (`web-7d9f`, `kube-system`,
//! `app=web,tier=front`) is written as it is, anything else single-quoted (`'web$(x)'`). A value
//! inside a single-quoted part of the command (a jsonpath) is [`InQuotes`]: only its own quotes are
//! escaped. A test reads every rule's source and fails on a command built any other way.

use std::borrow::Cow;

/// Bytes a shell word can hold unquoted: no blanks, no operators, no expansions, no globs, no
/// quotes (`~` only expands at a word's start, but is quoted anyway).
fn is_plain(b: u8) -> bool {
    b.is_ascii_alphanumeric()
        || matches!(
            b,
            b'-' | b'_' | b'.' | b'/' | b':' | b'=' | b',' | b'@' | b'%' | b'+'
        )
}

/// A name the input does not give, in a command: a placeholder the user fills in (issue 38), quoted
/// so that a command copied unchanged fails at kubectl, never as a shell redirection.
pub const UNKNOWN_NAME: &str = "'<name>'";

/// [`crate::UNKNOWN_NODE`] as a command writes it.
pub const UNKNOWN_NODE_WORD: &str = "'<node>'";

/// `word` as one shell word that means exactly `word`: as it is when every byte is plain,
/// otherwise in single quotes, each `'` in it written `'\''`. An empty word is a name the input
/// does not give: [`UNKNOWN_NAME`], never `''`.
pub fn quote(word: &str) -> Cow<'_, str> {
    if word.is_empty() {
        return Cow::Borrowed(UNKNOWN_NAME);
    }
    if word.bytes().all(is_plain) {
        Cow::Borrowed(word)
    } else {
        Cow::Owned(format!("'{}'", word.replace('\'', r"'\''")))
    }
}

/// A value that goes inside a single-quoted part of a command (`jsonpath='{.spec.containers[?(@.name=="NAME")]}'`):
/// nothing is expanded there, so only a `'`, which would end the quotes, is escaped.
pub struct InQuotes<'a>(pub &'a str);

/// A value written into a command by [`command!`].
pub trait ShellArg {
    fn shell_arg(&self) -> Cow<'_, str>;
}

impl ShellArg for str {
    fn shell_arg(&self) -> Cow<'_, str> {
        quote(self)
    }
}

impl ShellArg for String {
    fn shell_arg(&self) -> Cow<'_, str> {
        quote(self)
    }
}

impl ShellArg for compact_str::CompactString {
    fn shell_arg(&self) -> Cow<'_, str> {
        quote(self)
    }
}

impl<T: ShellArg + ?Sized> ShellArg for &T {
    fn shell_arg(&self) -> Cow<'_, str> {
        (**self).shell_arg()
    }
}

impl ShellArg for InQuotes<'_> {
    fn shell_arg(&self) -> Cow<'_, str> {
        if self.0.contains('\'') {
            Cow::Owned(self.0.replace('\'', r"'\''"))
        } else {
            Cow::Borrowed(self.0)
        }
    }
}

macro_rules! numbers_are_plain {
    ($($t:ty),*) => {$(
        impl ShellArg for $t {
            fn shell_arg(&self) -> Cow<'_, str> {
                Cow::Owned(self.to_string())
            }
        }
    )*};
}
numbers_are_plain!(u16, u32, u64, usize, i32, i64);

#[cfg(test)]
mod tests;
