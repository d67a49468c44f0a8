//! The flat JSON objects of the KataGo rules dialect (`kata-set-rules {"ko":"SIMPLE",...}`),
//! `kata-get-params` and the match runner's results file: one object of strings, numbers,
//! booleans and nulls, in a fixed field order. `serde_json` reads and writes them; this module
//! only keeps them flat.

use serde_json::{Map, Number, Value as Json};

/// A value of a flat object.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Str(String),
    Num(f64),
    Bool(bool),
    Null,
}

/// Reads `{"key": value, ...}` with scalar values only, in the order written.
///
/// # Errors
/// serde_json's description of broken JSON, or the key whose value is an array or object.
pub fn parse_flat_object(text: &str) -> Result<Vec<(String, Value)>, String> {
    let object: Map<String, Json> = serde_json::from_str(text).map_err(|e| e.to_string())?;
    object
        .into_iter()
        .map(|(key, value)| {
            let value = match value {
                Json::String(s) => Value::Str(s),
                Json::Number(n) => Value::Num(n.as_f64().unwrap_or(f64::NAN)),
                Json::Bool(b) => Value::Bool(b),
                Json::Null => Value::Null,
                Json::Array(_) | Json::Object(_) => {
                    return Err(format!("the value of '{key}' is not a string, number or boolean"))
                }
            };
            Ok((key, value))
        })
        .collect()
}

/// Writes a flat object in the given field order, on one line. Whole numbers are written
/// without a fraction (`5000`, as KataGo writes them), and a number that is not finite as
/// null.
pub fn write_flat_object(fields: &[(&str, Value)]) -> String {
    let object: Map<String, Json> = fields
        .iter()
        .map(|(key, value)| {
            let value = match value {
                Value::Str(s) => Json::String(s.clone()),
                Value::Num(n) if n.fract() == 0.0 && n.abs() < 9e15 => Json::from(*n as i64),
                Value::Num(n) => Number::from_f64(*n).map_or(Json::Null, Json::Number),
                Value::Bool(b) => Json::Bool(*b),
                Value::Null => Json::Null,
            };
            (key.to_string(), value)
        })
        .collect();
    Json::Object(object).to_string()
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
        // Whole numbers without a fraction, others as they are, in the order given.
        let text = write_flat_object(&[
            ("z", Value::Num(5000.0)),
            ("a", Value::Num(0.25)),
            ("m", Value::Num(-3.0)),
        ]);
        assert_eq!(text, r#"{"z":5000,"a":0.25,"m":-3}"#);
    }
}
