//! The one table of engine parameters: each one's key, kind (with its range), help text and
//! where its value lives. The command line (`--KEY VALUE`, `--param KEY=VALUE`),
//! `kata-get-params`/`kata-set-param`, and GoGui's parameter dialog (`tengen-param`) all read
//! it, so a parameter is added, renamed or bounded in this one place.

use crate::search::player::PlayerSettings;
use crate::search::policy::PlayoutPolicy;
use crate::search::MAX_THREADS;
use std::time::Duration;

/// What the parameters set: the player's settings (the search's parameters among them)
/// and the GTP layer's own.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Settings {
    pub player: PlayerSettings,
    /// Write GoGui's live graphics (`gogui-gfx:` lines on stderr) while genmove thinks.
    pub live_gfx: bool,
}

/// What values a parameter takes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Kind {
    /// A number in `min..=max`, a whole one if `integer`; with `auto`, also the word `auto`
    /// (the board size's own value).
    Number { min: f64, max: f64, integer: bool, auto: bool },
    /// `true` or `false` (GoGui's check boxes send 1 and 0, read as the same).
    Bool,
    /// One of these names.
    Choice(&'static [&'static str]),
}

/// A parameter's value.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Number(f64),
    Bool(bool),
    Name(&'static str),
    Auto,
}

impl Value {
    /// The value as the GTP dialects and the command line write it.
    pub fn text(&self) -> String {
        match self {
            Value::Number(n) => n.to_string(),
            Value::Bool(b) => b.to_string(),
            Value::Name(name) => name.to_string(),
            Value::Auto => "auto".to_string(),
        }
    }
}

/// One parameter.
pub struct Param {
    pub key: &'static str,
    pub kind: Kind,
    pub help: &'static str,
    get: fn(&Settings) -> Value,
    set: fn(&mut Settings, Value),
}

impl Param {
    /// Reads `text` as a value of this parameter.
    ///
    /// # Errors
    /// `bad value for parameter 'KEY'`, the text GTP answers with.
    pub fn parse(&self, text: &str) -> Result<Value, String> {
        let bad = || format!("bad value for parameter '{}'", self.key);
        match self.kind {
            Kind::Number { auto: true, .. } if text == "auto" => Ok(Value::Auto),
            Kind::Number { min, max, integer, .. } => text
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite() && (min..=max).contains(v))
                .filter(|v| !integer || v.fract() == 0.0)
                .map(Value::Number)
                .ok_or_else(bad),
            Kind::Bool => match text {
                "true" | "1" => Ok(Value::Bool(true)),
                "false" | "0" => Ok(Value::Bool(false)),
                _ => Err(bad()),
            },
            Kind::Choice(names) => {
                names.iter().find(|&&n| n == text).map(|&n| Value::Name(n)).ok_or_else(bad)
            }
        }
    }

    /// The parameter's value in `settings`.
    pub fn get(&self, settings: &Settings) -> Value {
        (self.get)(settings)
    }

    /// Sets the parameter in `settings` from `text`.
    ///
    /// # Errors
    /// As [`Param::parse`]; the settings are unchanged then.
    pub fn set(&self, settings: &mut Settings, text: &str) -> Result<(), String> {
        let value = self.parse(text)?;
        (self.set)(settings, value);
        Ok(())
    }

    /// The command-line flag: the key with `-` for `_`.
    pub fn flag(&self) -> String {
        self.key.replace('_', "-")
    }

    /// GoGui's parameter line type: `bool`, `list/a/b/c` or `string`.
    pub fn gogui_type(&self) -> String {
        match self.kind {
            Kind::Bool => "bool".to_string(),
            Kind::Choice(names) => format!("list/{}", names.join("/")),
            Kind::Number { .. } => "string".to_string(),
        }
    }
}

/// The parameter with this key.
pub fn find(key: &str) -> Option<&'static Param> {
    PARAMS.iter().find(|p| p.key == key)
}

fn number(value: &Value) -> f64 {
    match value {
        Value::Number(n) => *n,
        _ => 0.0,
    }
}

fn number_or_auto(value: &Value) -> Option<f64> {
    match value {
        Value::Number(n) => Some(*n),
        _ => None,
    }
}

fn or_auto(value: Option<f64>) -> Value {
    value.map_or(Value::Auto, Value::Number)
}

fn flag(value: &Value) -> bool {
    matches!(value, Value::Bool(true))
}

const fn range(min: f64, max: f64) -> Kind {
    Kind::Number { min, max, integer: false, auto: false }
}

const fn whole(min: f64, max: f64) -> Kind {
    Kind::Number { min, max, integer: true, auto: false }
}

const fn range_or_auto(min: f64, max: f64) -> Kind {
    Kind::Number { min, max, integer: false, auto: true }
}

/// Every parameter, in the order `kata-get-params` and GoGui list them.
pub const PARAMS: &[Param] = &[
    Param {
        key: "playouts",
        kind: whole(1.0, 1e12),
        help: "Playouts per move [default: 10000; unlimited when --time is given or the \
               controller sets a clock]",
        get: |e| Value::Number(e.player.search.playouts.min(u32::MAX as usize) as f64),
        set: |e, v| {
            e.player.search.playouts = number(&v) as usize;
            e.player.playouts_given = true;
        },
    },
    Param {
        key: "time",
        kind: range(0.0, crate::game::clock::MAX_THINK_SECONDS),
        help: "Seconds per move, 0 for none (a controller's clock can only shorten it)",
        get: |e| Value::Number(e.player.search.time_limit.map_or(0.0, |t| t.as_secs_f64())),
        set: |e, v| {
            let seconds = number(&v);
            e.player.search.time_limit = (seconds > 0.0).then(|| Duration::from_secs_f64(seconds));
        },
    },
    Param {
        key: "threads",
        kind: whole(1.0, MAX_THREADS as f64),
        help: "Search threads, sharing one tree [default: the machine's cores]",
        get: |e| Value::Number(e.player.search.threads as f64),
        set: |e, v| e.player.search.threads = number(&v) as usize,
    },
    Param {
        key: "deterministic",
        kind: Kind::Bool,
        help: "Simulations in waves of 16, so that a seed and a playout budget give the same \
               move, visits and win rates on any number of threads",
        get: |e| Value::Bool(e.player.search.deterministic),
        set: |e, v| e.player.search.deterministic = flag(&v),
    },
    Param {
        key: "exploration",
        kind: range(0.0, 100.0),
        help: "UCT exploration constant",
        get: |e| Value::Number(e.player.search.exploration),
        set: |e, v| e.player.search.exploration = number(&v),
    },
    Param {
        key: "rave_equivalence",
        kind: range(0.0, 1e9),
        help: "RAVE equivalence: visits at which a move's own and its RAVE value weigh alike",
        get: |e| Value::Number(e.player.search.rave_equivalence),
        set: |e, v| e.player.search.rave_equivalence = number(&v),
    },
    Param {
        key: "expand_after",
        kind: whole(0.0, 1e6),
        help: "Visits of a leaf before it is expanded",
        get: |e| Value::Number(f64::from(e.player.search.expand_after)),
        set: |e, v| e.player.search.expand_after = number(&v) as u32,
    },
    Param {
        key: "priors",
        kind: Kind::Bool,
        help: "Prior knowledge for new nodes",
        get: |e| Value::Bool(e.player.search.priors),
        set: |e, v| e.player.search.priors = flag(&v),
    },
    Param {
        key: "prior_weight",
        kind: range_or_auto(0.0, 100.0),
        help: "Weight of the priors (auto: the board size's)",
        get: |e| or_auto(e.player.search.prior_weight),
        set: |e, v| e.player.search.prior_weight = number_or_auto(&v),
    },
    Param {
        key: "model_prior",
        kind: range(0.0, 10_000.0),
        help: "Virtual wins the move model's chances give (0: no model)",
        get: |e| Value::Number(e.player.search.model_prior),
        set: |e, v| e.player.search.model_prior = number(&v),
    },
    Param {
        key: "node_priors",
        kind: Kind::Bool,
        help: "Priors count as each new node's own virtual simulations (Pachi's way), not as \
               virtual RAVE results",
        get: |e| Value::Bool(e.player.search.node_priors),
        set: |e, v| e.player.search.node_priors = flag(&v),
    },
    Param {
        key: "dead_chain_prior",
        kind: Kind::Bool,
        help: "Poor priors for moves that touch a chain the first simulations see dead",
        get: |e| Value::Bool(e.player.search.dead_chain_prior),
        set: |e, v| e.player.search.dead_chain_prior = flag(&v),
    },
    Param {
        key: "criticality",
        kind: range_or_auto(0.0, 10.0),
        help: "Weight of criticality (auto: the board size's)",
        get: |e| or_auto(e.player.search.criticality),
        set: |e, v| e.player.search.criticality = number_or_auto(&v),
    },
    Param {
        key: "policy",
        kind: Kind::Choice(&["light", "tactical", "patterns"]),
        help: "Playouts: patterns (tactics plus 3x3 shapes), tactical (answers ataris, avoids \
               self-atari) or light (uniform)",
        get: |e| Value::Name(e.player.search.policy.name()),
        set: |e, v| {
            if let Value::Name(name) = v {
                e.player.search.policy =
                    PlayoutPolicy::from_name(name).unwrap_or(e.player.search.policy);
            }
        },
    },
    Param {
        key: "max_memory",
        kind: whole(1.0, 1e7),
        help: "MiB for the search tree; when full, the search goes on without growing it",
        get: |e| Value::Number(e.player.search.max_memory_mib as f64),
        set: |e, v| e.player.search.max_memory_mib = number(&v) as usize,
    },
    Param {
        key: "resign_threshold",
        kind: range(0.0, 1.0),
        help: "Resign below this win rate (0 never resigns)",
        get: |e| Value::Number(e.player.resign_threshold),
        set: |e, v| e.player.resign_threshold = number(&v),
    },
    Param {
        key: "dynamic_komi",
        kind: range_or_auto(0.0, 100.0),
        help: "Step of dynamic komi in handicap games, in points (0: off; auto: the board's)",
        get: |e| or_auto(e.player.dynamic_komi_step),
        set: |e, v| e.player.dynamic_komi_step = number_or_auto(&v),
    },
    Param {
        key: "live_gfx",
        kind: Kind::Bool,
        help: "Write GoGui's live graphics on stderr while genmove thinks",
        get: |e| Value::Bool(e.live_gfx),
        set: |e, v| e.live_gfx = flag(&v),
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    // Every parameter reads back what was set, in its own text, and refuses a value outside
    // its kind without changing the engine; keys are unique.
    #[test]
    fn every_parameter_round_trips_and_refuses_bad_values() {
        let mut settings = Settings::default();
        for (i, param) in PARAMS.iter().enumerate() {
            assert!(PARAMS[..i].iter().all(|p| p.key != param.key), "{} twice", param.key);
            let good = match param.kind {
                Kind::Number { max, auto: true, .. } => {
                    vec![(max / 2.0).to_string(), "auto".into()]
                }
                Kind::Number { min, max, .. } => vec![min.to_string(), max.min(1000.0).to_string()],
                Kind::Bool => vec!["true".into(), "false".into()],
                Kind::Choice(names) => names.iter().map(|n| n.to_string()).collect(),
            };
            for text in good {
                param.set(&mut settings, &text).unwrap();
                assert_eq!(param.get(&settings).text(), text, "{}", param.key);
            }
            let before = param.get(&settings);
            for bad in ["", "x", "-1e99", "1e99", "nan", "maybe"] {
                assert!(param.set(&mut settings, bad).is_err(), "{} {bad}", param.key);
                assert_eq!(param.get(&settings), before, "{} {bad}", param.key);
            }
        }
        let threads = find("threads").unwrap();
        assert!(threads.parse("1.5").is_err(), "a whole number");
        assert!(threads.parse(&(MAX_THREADS + 1).to_string()).is_err());
        assert_eq!(find("priors").unwrap().parse("1"), Ok(Value::Bool(true)));
        assert_eq!(find("max_memory").unwrap().flag(), "max-memory");
        assert_eq!(find("policy").unwrap().gogui_type(), "list/light/tactical/patterns");
    }
}
