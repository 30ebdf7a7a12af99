//! The vocabulary the API's inputs are declared in: a [`Field`] is one
//! query parameter or one body key, with its [`Ty`] (type, bounds, enum
//! spellings, nested keys) and its documentation. The body parsers read
//! their allowed keys, bounds and spellings from these declarations, the
//! query-string checks their allowed names, and the OpenAPI document its
//! parameters and request schemas.

/// Longest array accepted anywhere in a body.
pub const MAX_ITEMS: usize = 100;

/// The type of a value.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Ty {
    /// A JSON object allowing exactly these keys (any other is
    /// `UNKNOWN_PARAMETER`); `null` is the same as absent.
    Object(&'static [Field]),
    /// A JSON array of items: not empty, at most [`MAX_ITEMS`].
    Array(&'static Ty),
    /// A UUID (`8-4-4-4-12` hex).
    Uuid,
    /// A string that is not blank.
    Text,
    /// A string kept as given: a permalink or a free-text filter value (one
    /// that matches nothing, blank included, is simply no match, as an
    /// unknown permalink is, reference §1.8).
    Str,
    /// An identifier string: a domain, URL, slug or permalink (normalised
    /// by the endpoint; one that does not normalise matches nothing).
    Identifier,
    /// A day, `YYYY-MM-DD`.
    Date,
    /// An instant, ISO 8601 with a time and a zone (`2024-01-01T00:00:00.000Z`).
    DateTime,
    /// A non-negative number of US dollars.
    Money,
    /// A number from 0 to 1.
    Fraction,
    /// A whole number in `min..=max`.
    Int {
        min: u64,
        max: u64,
    },
    Bool,
    /// One of these exact spellings.
    Enum(&'static [&'static str]),
    /// A round type with its flags: `{type, pre?, extension?}`.
    FinancingType,
    /// A round type as a human-readable label (`Series A`, `Pre-Seed`,
    /// `Series B extension`; case and `-`/`_`/space are not significant).
    RoundLabel,
}

/// One query parameter or body key.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Field {
    pub name: &'static str,
    pub ty: Ty,
    pub doc: &'static str,
    /// The value assumed when absent, as JSON text.
    pub default: Option<&'static str>,
    /// Whether the parameter must be present (query parameters only).
    pub required: bool,
}

impl Field {
    /// An optional field without a default.
    pub const fn new(name: &'static str, ty: Ty, doc: &'static str) -> Field {
        Field {
            name,
            ty,
            doc,
            default: None,
            required: false,
        }
    }

    /// The same field with a default (JSON text).
    pub const fn default(self, json: &'static str) -> Field {
        Field {
            default: Some(json),
            ..self
        }
    }

    /// The same field, required.
    pub const fn required(self) -> Field {
        Field {
            required: true,
            ..self
        }
    }

    /// The keys of an object field (empty for any other type).
    pub fn keys(&self) -> &'static [Field] {
        match self.ty {
            Ty::Object(fields) => fields,
            _ => &[],
        }
    }
}

/// [`Field::new`], short for the declaration tables.
pub const fn f(name: &'static str, ty: Ty, doc: &'static str) -> Field {
    Field::new(name, ty, doc)
}

/// The names of `fields`, in declaration order.
pub fn names(fields: &[Field]) -> Vec<&'static str> {
    fields.iter().map(|f| f.name).collect()
}

/// The field called `name` among `fields`.
pub fn find(fields: &'static [Field], name: &str) -> Option<&'static Field> {
    fields.iter().find(|f| f.name == name)
}

/// The keys of one financing type object (`financing_types[]`).
pub const FINANCING_TYPE_KEYS: &[Field] = &[
    Field::new(
        "type",
        Ty::Enum(crate::schema::RoundType::SPELLINGS),
        "Round type.",
    )
    .required(),
    Field::new("pre", Ty::Bool, "A pre- round (Pre-Seed is SEED with pre).").default("false"),
    Field::new("extension", Ty::Bool, "An extension of the round.").default("false"),
];

const BLANK: Field = Field::new("", Ty::Bool, "");

/// The fields of `a`, then those of `b`: key groups several bodies share,
/// joined in a constant (`N` must be `A + B`).
pub const fn join<const A: usize, const B: usize, const N: usize>(
    a: [Field; A],
    b: [Field; B],
) -> [Field; N] {
    assert!(A + B == N, "join: N must be A + B");
    let mut out = [BLANK; N];
    let mut i = 0;
    while i < A {
        out[i] = a[i];
        i += 1;
    }
    while i < N {
        out[i] = b[i - A];
        i += 1;
    }
    out
}
