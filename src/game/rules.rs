//! The rules a game is played under, as one explicit value.
//!
//! `Rules::default()` is the Chinese rules (中国围棋规则): positional superko, suicide
//! forbidden, area counting, komi 7.5 (3¾ stones), and N points to white in an N-stone
//! handicap game (black returns half a stone per handicap stone). The other presets are
//! options a user picks by name; nothing else in the engine assumes which one is in force.

use crate::board::color::Color;
use std::fmt;

/// Which repetitions are forbidden.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KoRule {
    /// Only the immediate retake of a single stone is forbidden.
    Simple,
    /// No move may recreate any earlier whole-board position (the Chinese rule).
    Positional,
    /// No move may recreate a position that arose after a move by the same player.
    Situational,
}

/// How the final position is counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scoring {
    /// Stones plus surrounded empty points (数子法).
    Area,
    /// Surrounded empty points plus prisoners; points in seki count for nobody.
    Territory,
}

/// Compensation white receives for black's handicap stones.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HandicapBonus {
    /// Nothing beyond komi.
    Zero,
    /// One point per handicap stone (Chinese: black returns half a stone per stone).
    N,
    /// One point per handicap stone after the first (AGA).
    NMinusOne,
}

/// A complete rule set.
#[derive(Clone, Debug, PartialEq)]
pub struct Rules {
    pub ko: KoRule,
    pub suicide_allowed: bool,
    pub scoring: Scoring,
    /// Points white receives; any real value, negative allowed.
    pub komi: f64,
    pub handicap_bonus: HandicapBonus,
    /// Who moves first in a game without handicap.
    pub first_player: Color,
    /// 座子: two black and two white stones on the corner star points before the game.
    pub corner_stones: bool,
    /// 还棋头: at the count each side hands one stone per separate living group to the other.
    pub group_tax: bool,
}

impl Default for Rules {
    fn default() -> Rules {
        Rules::chinese()
    }
}

/// A rule set tengen knows by name.
pub struct NamedRules {
    /// Its names, the canonical one first; matched ignoring case, with `_`, `-` and spaces
    /// alike.
    pub names: &'static [&'static str],
    pub rules: fn() -> Rules,
    /// Whether it is one of the presets the command line and the README list.
    pub preset: bool,
    /// What a game record's `RU` says for it.
    pub sgf_name: &'static str,
}

/// Every rule set known by name: the one table that `--rules`, SGF `RU`, `kgs-rules` and
/// `kata-set-rules` read. AGA and New Zealand are what their rules texts say, as KataGo's
/// rules JSON spells them too: situational superko, area scoring; AGA with N-1 handicap
/// compensation, New Zealand with suicide allowed and none.
pub const RULE_SETS: &[NamedRules] = &[
    NamedRules {
        names: &["chinese", "cn", "chn"],
        rules: Rules::chinese,
        preset: true,
        sgf_name: "Chinese",
    },
    NamedRules {
        names: &["tromp-taylor", "tromptaylor", "tt"],
        rules: Rules::tromp_taylor,
        preset: true,
        sgf_name: "Tromp-Taylor",
    },
    NamedRules {
        names: &["japanese", "jp", "korean", "ko"],
        rules: Rules::japanese,
        preset: true,
        sgf_name: "Japanese",
    },
    NamedRules {
        names: &["ancient", "ancient-chinese"],
        rules: Rules::ancient,
        preset: true,
        sgf_name: "ancient",
    },
    NamedRules { names: &["aga"], rules: Rules::aga, preset: false, sgf_name: "AGA" },
    NamedRules {
        names: &["new-zealand", "nz"],
        rules: Rules::new_zealand,
        preset: false,
        sgf_name: "NZ",
    },
];

/// The canonical names of the presets, for help texts and error messages.
pub fn preset_names() -> Vec<&'static str> {
    RULE_SETS.iter().filter(|set| set.preset).map(|set| set.names[0]).collect()
}

impl Rules {
    /// The Chinese rules, the default.
    pub fn chinese() -> Rules {
        Rules {
            ko: KoRule::Positional,
            suicide_allowed: false,
            scoring: Scoring::Area,
            komi: 7.5,
            handicap_bonus: HandicapBonus::N,
            first_player: Color::Black,
            corner_stones: false,
            group_tax: false,
        }
    }

    /// Tromp–Taylor: like Chinese but suicide allowed and no handicap bonus.
    pub fn tromp_taylor() -> Rules {
        Rules { suicide_allowed: true, handicap_bonus: HandicapBonus::Zero, ..Rules::chinese() }
    }

    /// Japanese and Korean rules as the rules texts describe them: territory plus prisoners,
    /// komi 6.5, simple ko, no handicap bonus.
    pub fn japanese() -> Rules {
        Rules {
            ko: KoRule::Simple,
            scoring: Scoring::Territory,
            komi: 6.5,
            handicap_bonus: HandicapBonus::Zero,
            ..Rules::chinese()
        }
    }

    /// The ancient Chinese rules: 座子 corner stones, white first, no komi, area counting
    /// with 还棋头 (one stone back per separate living group).
    pub fn ancient() -> Rules {
        Rules {
            komi: 0.0,
            handicap_bonus: HandicapBonus::Zero,
            first_player: Color::White,
            corner_stones: true,
            group_tax: true,
            ..Rules::chinese()
        }
    }

    /// AGA: area scoring, situational superko, N-1 handicap compensation.
    pub fn aga() -> Rules {
        Rules {
            ko: KoRule::Situational,
            handicap_bonus: HandicapBonus::NMinusOne,
            ..Rules::chinese()
        }
    }

    /// New Zealand: area scoring, situational superko, suicide allowed, no handicap bonus.
    pub fn new_zealand() -> Rules {
        Rules { ko: KoRule::Situational, ..Rules::tromp_taylor() }
    }

    /// The rule set of [`RULE_SETS`] with this name (case, `_`, `-` and spaces ignored).
    pub fn named(name: &str) -> Option<Rules> {
        let key = |name: &str| name.trim().to_ascii_lowercase().replace(['_', ' '], "-");
        let wanted = key(name);
        RULE_SETS
            .iter()
            .find(|set| set.names.iter().any(|&n| key(n) == wanted))
            .map(|set| (set.rules)())
    }

    /// The named rule set these rules equal, ignoring komi, if any.
    pub fn rule_set(&self) -> Option<&'static NamedRules> {
        RULE_SETS.iter().find(|set| Rules { komi: self.komi, ..(set.rules)() } == *self)
    }

    /// The canonical name of the rule set these rules equal, ignoring komi, if any.
    pub fn preset_name(&self) -> Option<&'static str> {
        self.rule_set().map(|set| set.names[0])
    }

    /// What white receives at the count of a game with `handicap` stones: the komi and the
    /// handicap points. The one formula the count and the search's win both use.
    pub fn compensation(&self, handicap: u32) -> f64 {
        self.komi + self.handicap_points(handicap)
    }

    /// Points white receives for `handicap` stones under these rules.
    pub fn handicap_points(&self, handicap: u32) -> f64 {
        match self.handicap_bonus {
            HandicapBonus::Zero => 0.0,
            HandicapBonus::N => handicap as f64,
            HandicapBonus::NMinusOne => handicap.saturating_sub(1) as f64,
        }
    }
}

impl fmt::Display for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.preset_name() {
            Some(name) => write!(f, "{name} (komi {})", self.komi),
            None => write!(
                f,
                "custom: ko {:?}, suicide {}, scoring {:?}, komi {}, handicap bonus {:?}",
                self.ko, self.suicide_allowed, self.scoring, self.komi, self.handicap_bonus
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // The default is the Chinese rules of DEVELOPERS.md: superko, no suicide, area, 7.5, N.
    #[test]
    fn default_is_chinese() {
        let rules = Rules::default();
        assert_eq!(rules.ko, KoRule::Positional);
        assert!(!rules.suicide_allowed);
        assert_eq!(rules.scoring, Scoring::Area);
        assert_eq!(rules.komi, 7.5);
        assert_eq!(rules.handicap_points(4), 4.0);
        assert_eq!(rules.first_player, Color::Black);
        assert_eq!(rules.preset_name(), Some("chinese"));
    }

    // Each preset differs from Chinese exactly where its rule set does.
    #[test]
    fn presets() {
        let tt = Rules::named("Tromp-Taylor").unwrap();
        assert!(tt.suicide_allowed && tt.ko == KoRule::Positional);
        assert_eq!(tt.handicap_points(3), 0.0);
        let jp = Rules::named("japanese").unwrap();
        assert_eq!((jp.ko, jp.scoring, jp.komi), (KoRule::Simple, Scoring::Territory, 6.5));
        let old = Rules::named("ancient").unwrap();
        assert!(old.corner_stones && old.group_tax && old.komi == 0.0);
        assert_eq!(old.first_player, Color::White);
        assert!(Rules::named("ing").is_none());
        assert_eq!(preset_names(), ["chinese", "tromp-taylor", "japanese", "ancient"]);
    }

    // Every name of the one table finds its own rule set, in any spelling, and the rule
    // sets are all different; AGA and New Zealand are situational superko (as KataGo's
    // JSON for them), with N-1 compensation and with suicide allowed respectively.
    #[test]
    fn one_table_of_names() {
        for set in RULE_SETS {
            for name in set.names {
                let spellings = [name.to_string(), name.to_uppercase(), name.replace('-', "_")];
                for spelling in spellings {
                    let rules = Rules::named(&spelling).unwrap();
                    assert_eq!(rules.preset_name(), Some(set.names[0]), "{spelling}");
                }
            }
        }
        assert_eq!(Rules::named("New Zealand"), Some(Rules::new_zealand()));
        assert_eq!(Rules::named("Tromp Taylor"), Some(Rules::tromp_taylor()));
        let aga = Rules::named("AGA").unwrap();
        assert_eq!(
            (aga.ko, aga.handicap_points(3), aga.suicide_allowed),
            (KoRule::Situational, 2.0, false)
        );
        let nz = Rules::named("nz").unwrap();
        assert_eq!(
            (nz.ko, nz.handicap_points(3), nz.suicide_allowed),
            (KoRule::Situational, 0.0, true)
        );
    }

    // AGA-style N−1 compensation gives nothing for a single stone.
    #[test]
    fn handicap_bonus_n_minus_one() {
        let rules = Rules { handicap_bonus: HandicapBonus::NMinusOne, ..Rules::chinese() };
        assert_eq!(rules.handicap_points(1), 0.0);
        assert_eq!(rules.handicap_points(5), 4.0);
        assert_eq!(rules.preset_name(), None);
    }
}
