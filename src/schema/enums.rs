//! Closed vocabularies of the API (reference §1.9), shared by dumps, index and requests.
//!
//! Each enum knows its wire spelling (`as_str`) and parses it back exactly
//! (`parse`); nothing here is lenient, so a typo in a dump or a request is
//! always reported instead of silently matching nothing.

/// Declares a closed string enum with its exact wire spellings.
macro_rules! wire_enum {
    ($(#[$meta:meta])* $name:ident { $($(#[$vmeta:meta])* $variant:ident => $text:literal),+ $(,)? }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum $name { $($(#[$vmeta])* $variant),+ }

        impl $name {
            /// Every value, in declaration order.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            /// Every wire spelling, in declaration order.
            pub const SPELLINGS: &'static [&'static str] = &[$($text),+];

            /// The exact wire spelling.
            pub fn as_str(self) -> &'static str {
                match self { $($name::$variant => $text),+ }
            }

            /// Parses the exact wire spelling.
            pub fn parse(text: &str) -> Option<$name> {
                match text { $($text => Some($name::$variant),)+ _ => None }
            }

            /// All wire spellings, for `validOptions` in error bodies.
            pub fn options() -> Vec<String> {
                Self::ALL.iter().map(|v| v.as_str().to_string()).collect()
            }
        }

        /// The wire spelling in text formats; the declaration index in
        /// compact binary ones (the indexer's packed facts).
        impl ::serde::Serialize for $name {
            fn serialize<S: ::serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                if s.is_human_readable() {
                    s.serialize_str(self.as_str())
                } else {
                    let index = Self::ALL.iter().position(|v| v == self).unwrap_or(0);
                    s.serialize_u8(index as u8)
                }
            }
        }

        impl<'de> ::serde::Deserialize<'de> for $name {
            fn deserialize<D: ::serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                if !d.is_human_readable() {
                    let index = <u8 as ::serde::Deserialize>::deserialize(d)?;
                    return Self::ALL.get(index as usize).copied().ok_or_else(|| {
                        serde::de::Error::custom(format!("{} index {index}", stringify!($name)))
                    });
                }
                let text = <std::borrow::Cow<'de, str> as ::serde::Deserialize>::deserialize(d)?;
                $name::parse(&text).ok_or_else(|| {
                    serde::de::Error::custom(format!(
                        "unknown {} '{}' (expected one of: {})",
                        stringify!($name), text, $name::options().join(", ")
                    ))
                })
            }
        }
    };
}

pub(crate) use wire_enum;

wire_enum!(
    /// Round (financing) type, spec §2.8.
    RoundType {
        SeriesA => "SERIES_A", SeriesB => "SERIES_B", SeriesC => "SERIES_C", SeriesD => "SERIES_D",
        SeriesE => "SERIES_E", SeriesF => "SERIES_F", SeriesG => "SERIES_G", SeriesH => "SERIES_H",
        SeriesI => "SERIES_I", SeriesJ => "SERIES_J", SeriesK => "SERIES_K", SeriesL => "SERIES_L",
        SeriesM => "SERIES_M", Seed => "SEED", Safe => "SAFE", ConvertibleNote => "CONVERTIBLE_NOTE",
        Equity => "EQUITY", Preferred => "PREFERRED", SecondaryMarket => "SECONDARY_MARKET",
        DebtFinancing => "DEBT_FINANCING", Grant => "GRANT",
        NonEquityAssistance => "NON_EQUITY_ASSISTANCE", Crowdfunding => "CROWDFUNDING",
        InitialCoinOffering => "INITIAL_COIN_OFFERING", FundingRound => "FUNDING_ROUND",
    }
);

wire_enum!(
    /// Headcount bucket (`employee_count`, `num_employees`).
    Headcount {
        H1To10 => "1-10", H11To50 => "11-50", H51To100 => "51-100", H101To250 => "101-250",
        H251To500 => "251-500", H501To1000 => "501-1000", H1001To5000 => "1001-5000",
        H5001To10000 => "5001-10000", H10001Plus => "10001+",
    }
);

wire_enum!(
    /// Listing status of a company.
    IpoStatus { Public => "public", Private => "private", Acquired => "acquired", Delisted => "delisted" }
);

wire_enum!(
    /// Level of a location.
    LocationType { City => "CITY", State => "STATE", Region => "REGION", Country => "COUNTRY" }
);

wire_enum!(
    /// Kind of an industry entry.
    IndustryType { Industry => "INDUSTRY", SuperCategory => "SUPER_CATEGORY" }
);

wire_enum!(
    /// Role of a person at their current employer (`person.roles`).
    PersonRole { Founder => "founder", Ceo => "ceo", KeyPerson => "key_person" }
);

wire_enum!(
    /// Contact channel a person has on file (`person.contact_types`).
    ContactType { Linkedin => "linkedin", Email => "email", Phone => "phone", Twitter => "twitter" }
);

wire_enum!(
    /// Series suffix of a round (`intermediate`): `TWO` renders Series E-2.
    Intermediate {
        Plus => "PLUS", None => "NONE", One => "ONE", Two => "TWO", Three => "THREE", Four => "FOUR",
        Five => "FIVE", Six => "SIX", Seven => "SEVEN", Eight => "EIGHT",
    }
);

wire_enum!(
    /// How a valuation was stated.
    ValuationType { Default => "DEFAULT", PostMoney => "POST_MONEY", PreMoney => "PRE_MONEY" }
);

/// A round type with its modifiers, as filters name it: `{type, pre, extension}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct RoundKey {
    pub round_type: RoundType,
    pub pre: bool,
    pub extension: bool,
}

impl RoundKey {
    /// The facet value under which rounds of this kind are indexed:
    /// `SEED`, `SEED/pre`, `SERIES_A/ext`, `SEED/pre/ext`.
    pub fn facet_value(&self) -> String {
        let mut key = self.round_type.as_str().to_string();
        if self.pre {
            key.push_str("/pre");
        }
        if self.extension {
            key.push_str("/ext");
        }
        key
    }

    /// The human-readable label alerts use (reference §12.8): `Series A`,
    /// `Seed`, `Pre-Seed`, `SAFE`, `Series B extension`, `Debt Financing`.
    pub fn label(&self) -> String {
        let base = self.round_type.label();
        let base = if self.pre {
            format!("Pre-{base}")
        } else {
            base.to_string()
        };
        if self.extension {
            format!("{base} extension")
        } else {
            base
        }
    }

    /// Parses a label as [`RoundKey::label`] writes it, ignoring case and
    /// treating `-`, `_` and runs of spaces alike (`series a`, `Pre-Seed`,
    /// `pre seed`); `None` for anything else.
    pub fn from_label(text: &str) -> Option<RoundKey> {
        let words = text.to_lowercase().replace(['-', '_'], " ");
        let mut normal = words.split_whitespace().collect::<Vec<_>>().join(" ");
        let extension = normal.ends_with(" extension");
        if extension {
            normal.truncate(normal.len() - " extension".len());
        }
        let pre = normal.starts_with("pre ");
        let base = if pre { &normal[4..] } else { normal.as_str() };
        let round_type = RoundType::ALL
            .iter()
            .copied()
            .find(|t| t.label().to_lowercase().replace('-', " ") == base)?;
        Some(RoundKey {
            round_type,
            pre,
            extension,
        })
    }
}

impl RoundType {
    /// The label of a plain round of this type (`Series A`, `Seed`).
    pub fn label(self) -> &'static str {
        ROUND_LABELS[RoundType::ALL.iter().position(|t| *t == self).unwrap_or(0)]
    }
}

/// [`RoundType::label`] of each type, in [`RoundType::ALL`] order.
pub const ROUND_LABELS: &[&str] = &[
    "Series A",
    "Series B",
    "Series C",
    "Series D",
    "Series E",
    "Series F",
    "Series G",
    "Series H",
    "Series I",
    "Series J",
    "Series K",
    "Series L",
    "Series M",
    "Seed",
    "SAFE",
    "Convertible Note",
    "Equity",
    "Preferred",
    "Secondary Market",
    "Debt Financing",
    "Grant",
    "Non-Equity Assistance",
    "Crowdfunding",
    "Initial Coin Offering",
    "Funding Round",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_types_round_trip_their_spelling() {
        assert_eq!(RoundType::ALL.len(), 25);
        for t in RoundType::ALL {
            assert_eq!(RoundType::parse(t.as_str()), Some(*t));
        }
        assert_eq!(RoundType::parse("Series A"), None);
        assert_eq!(RoundType::parse("series_a"), None);
    }

    #[test]
    fn serde_rejects_unknown_values_with_the_options() {
        let err = serde_json::from_str::<Headcount>("\"12-50\"")
            .unwrap_err()
            .to_string();
        assert!(err.contains("11-50"), "{err}");
        assert_eq!(
            serde_json::from_str::<Headcount>("\"10001+\"").unwrap(),
            Headcount::H10001Plus
        );
    }

    #[test]
    fn round_labels_round_trip_and_read_leniently() {
        assert_eq!(ROUND_LABELS.len(), RoundType::ALL.len());
        for &round_type in RoundType::ALL {
            for (pre, extension) in [(false, false), (true, false), (false, true), (true, true)] {
                let key = RoundKey {
                    round_type,
                    pre,
                    extension,
                };
                assert_eq!(
                    RoundKey::from_label(&key.label()),
                    Some(key),
                    "{}",
                    key.label()
                );
            }
        }
        let seed = |pre| RoundKey {
            round_type: RoundType::Seed,
            pre,
            extension: false,
        };
        assert_eq!(seed(true).label(), "Pre-Seed");
        assert_eq!(RoundKey::from_label(" pre  seed"), Some(seed(true)));
        assert_eq!(
            RoundKey::from_label("series a").map(|k| k.label()),
            Some("Series A".into())
        );
        assert_eq!(
            RoundKey::from_label("Preferred").map(|k| k.pre),
            Some(false)
        );
        assert_eq!(RoundKey::from_label("Series Z"), None);
        assert_eq!(RoundKey::from_label(""), None);
    }

    #[test]
    fn round_key_facet_values_are_distinct_per_modifier() {
        let k = |pre, extension| {
            RoundKey {
                round_type: RoundType::Seed,
                pre,
                extension,
            }
            .facet_value()
        };
        assert_eq!(k(false, false), "SEED");
        assert_eq!(k(true, false), "SEED/pre");
        assert_eq!(k(false, true), "SEED/ext");
        assert_eq!(k(true, true), "SEED/pre/ext");
    }
}
