use serde_json::{Map, Value};

use super::EngineError;

/// A game's parameters as Python resolved them (`Game.params`: every parameter, defaults filled
/// in and checked). The native side reads them; it never decides what is allowed, so the errors
/// a person sees for a bad value are Python's, said once.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Params(pub Map<String, Value>);

impl Params {
    pub fn from_json(text: &str) -> Result<Params, EngineError> {
        match serde_json::from_str::<Value>(text) {
            Ok(Value::Object(map)) => Ok(Params(map)),
            _ => Err(EngineError::InvalidParameter(format!(
                "parameters are a JSON object, not {text:?}"
            ))),
        }
    }

    fn get(&self, name: &str) -> Result<&Value, EngineError> {
        self.0.get(name).ok_or_else(|| {
            EngineError::InvalidParameter(format!("the native engine needs parameter '{name}'"))
        })
    }

    pub fn int(&self, name: &str) -> Result<i64, EngineError> {
        self.get(name)?.as_i64().ok_or_else(|| {
            EngineError::InvalidParameter(format!("parameter '{name}' is a whole number"))
        })
    }

    pub fn flag(&self, name: &str) -> Result<bool, EngineError> {
        self.get(name)?.as_bool().ok_or_else(|| {
            EngineError::InvalidParameter(format!("parameter '{name}' is true or false"))
        })
    }

    pub fn text(&self, name: &str) -> Result<&str, EngineError> {
        self.get(name)?
            .as_str()
            .ok_or_else(|| EngineError::InvalidParameter(format!("parameter '{name}' is text")))
    }

    /// A parameter that may be `None` in Python (`null` here).
    pub fn optional(&self, name: &str) -> Option<&Value> {
        self.0.get(name).filter(|value| !value.is_null())
    }

    pub fn to_json(&self) -> Value {
        Value::Object(self.0.clone())
    }
}
