//! Text as the Python engine shows it in its messages.

/// Python's `repr` of a string, as the Python engine's error messages quote the input: single
/// quotes unless it holds one and no double quote; backslashes and ASCII control characters
/// escaped.
pub fn python_repr(text: &str) -> String {
    let quote = if text.contains('\'') && !text.contains('"') {
        '"'
    } else {
        '\''
    };
    let mut shown = String::with_capacity(text.len() + 2);
    shown.push(quote);
    for c in text.chars() {
        match c {
            '\\' => shown.push_str("\\\\"),
            '\n' => shown.push_str("\\n"),
            '\r' => shown.push_str("\\r"),
            '\t' => shown.push_str("\\t"),
            c if c == quote => {
                shown.push('\\');
                shown.push(c);
            }
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                shown.push_str(&format!("\\x{:02x}", c as u32));
            }
            c => shown.push(c),
        }
    }
    shown.push(quote);
    shown
}
