//! Just enough JSON for the KataGo rules dialect (`kata-set-rules {"ko":"SIMPLE",...}`) and
//! the match runner's results file: one flat object of strings, numbers, booleans and nulls,
//! read; and the same written.

/// A value of a flat object.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Str(String),
    Num(f64),
    Bool(bool),
    Null,
}

/// Reads `{"key": value, ...}` with scalar values only.
///
/// # Errors
/// A message naming what was expected where.
pub fn parse_flat_object(text: &str) -> Result<Vec<(String, Value)>, String> {
    let mut reader = Reader { chars: text.chars().collect(), at: 0 };
    reader.expect('{')?;
    let mut fields = Vec::new();
    if reader.next_is('}') {
        reader.at += 1;
    } else {
        loop {
            let key = reader.string()?;
            reader.expect(':')?;
            let value = reader.value()?;
            fields.push((key, value));
            reader.skip_space();
            match reader.bump() {
                Some(',') => continue,
                Some('}') => break,
                _ => return Err(format!("expected , or }} at {}", reader.at)),
            }
        }
    }
    reader.skip_space();
    if reader.at != reader.chars.len() {
        return Err(format!("unexpected text after the object at {}", reader.at));
    }
    Ok(fields)
}

struct Reader {
    chars: Vec<char>,
    at: usize,
}

impl Reader {
    fn skip_space(&mut self) {
        while self.chars.get(self.at).is_some_and(|c| c.is_whitespace()) {
            self.at += 1;
        }
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.chars.get(self.at).copied();
        self.at += 1;
        c
    }

    fn next_is(&mut self, c: char) -> bool {
        self.skip_space();
        self.chars.get(self.at) == Some(&c)
    }

    fn expect(&mut self, c: char) -> Result<(), String> {
        if self.next_is(c) {
            self.at += 1;
            Ok(())
        } else {
            Err(format!("expected {c} at {}", self.at))
        }
    }

    fn string(&mut self) -> Result<String, String> {
        self.expect('"')?;
        let mut out = String::new();
        loop {
            match self.bump() {
                None => return Err("unterminated string".into()),
                Some('"') => return Ok(out),
                Some('\\') => match self.bump() {
                    Some('n') => out.push('\n'),
                    Some('t') => out.push('\t'),
                    Some(c @ ('"' | '\\' | '/')) => out.push(c),
                    Some('r') => out.push('\r'),
                    Some('u') => {
                        let digits: String = (0..4).filter_map(|_| self.bump()).collect();
                        let code = u32::from_str_radix(&digits, 16)
                            .ok()
                            .filter(|_| digits.len() == 4)
                            .and_then(char::from_u32)
                            .ok_or_else(|| format!("bad \\u escape at {}", self.at))?;
                        out.push(code);
                    }
                    _ => return Err(format!("bad escape at {}", self.at)),
                },
                Some(c) => out.push(c),
            }
        }
    }

    fn value(&mut self) -> Result<Value, String> {
        self.skip_space();
        match self.chars.get(self.at) {
            Some('"') => self.string().map(Value::Str),
            Some(_) => {
                let start = self.at;
                while self
                    .chars
                    .get(self.at)
                    .is_some_and(|c| c.is_ascii_alphanumeric() || "+-.".contains(*c))
                {
                    self.at += 1;
                }
                let word: String = self.chars[start..self.at].iter().collect();
                match word.as_str() {
                    "true" => Ok(Value::Bool(true)),
                    "false" => Ok(Value::Bool(false)),
                    "null" => Ok(Value::Null),
                    number => number
                        .parse::<f64>()
                        .ok()
                        .filter(|n| n.is_finite())
                        .map(Value::Num)
                        .ok_or_else(|| format!("expected a value at {start}")),
                }
            }
            None => Err("expected a value".into()),
        }
    }
}

/// Writes a flat object in the given field order.
pub fn write_flat_object(fields: &[(&str, Value)]) -> String {
    let body: Vec<String> = fields
        .iter()
        .map(|(key, value)| {
            let value = match value {
                Value::Str(s) => quote(s),
                Value::Num(n) if n.is_finite() => n.to_string(),
                Value::Num(_) => "null".to_string(),
                Value::Bool(b) => b.to_string(),
                Value::Null => "null".to_string(),
            };
            format!("\"{key}\":{value}")
        })
        .collect();
    format!("{{{}}}", body.join(","))
}

/// A JSON string literal: quotes, backslashes and control characters escaped, so that a
/// written object always stays on one line.
fn quote(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if c.is_control() => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    // The object KataGo's kata-set-rules takes reads back field by field.
    #[test]
    fn reads_rules_object() {
        let fields =
            parse_flat_object(r#" {"ko":"SIMPLE", "suicide":true,"komi":-6.5, "x":null} "#)
                .unwrap();
        assert_eq!(fields[0], ("ko".into(), Value::Str("SIMPLE".into())));
        assert_eq!(fields[1].1, Value::Bool(true));
        assert_eq!(fields[2].1, Value::Num(-6.5));
        assert_eq!(fields[3].1, Value::Null);
        assert_eq!(parse_flat_object("{}").unwrap(), vec![]);
    }

    // Broken JSON is an error with a reason, never a panic.
    #[test]
    fn rejects_broken_json() {
        for bad in [
            "",
            "{",
            "{\"a\"}",
            "{\"a\":}",
            "{\"a\":1,}",
            "{\"a\":1} x",
            "{\"a\":[1]}",
            "{\"a\":\"\\q\"}",
            "{\"a\":nan}",
        ] {
            assert!(parse_flat_object(bad).is_err(), "{bad}");
        }
    }

    // Written objects read back to the same fields.
    #[test]
    fn round_trip() {
        let text = write_flat_object(&[("a", Value::Str("x\"y".into())), ("b", Value::Num(7.5))]);
        let back = parse_flat_object(&text).unwrap();
        assert_eq!(
            back,
            vec![("a".into(), Value::Str("x\"y".into())), ("b".into(), Value::Num(7.5))]
        );
        let awkward = "line\nbreak\t\\ \u{1} 天元";
        let text =
            write_flat_object(&[("s", Value::Str(awkward.into())), ("n", Value::Num(f64::NAN))]);
        assert!(!text.contains('\n'), "{text}");
        let back = parse_flat_object(&text).unwrap();
        assert_eq!(back, vec![("s".into(), Value::Str(awkward.into())), ("n".into(), Value::Null)]);
    }
}
