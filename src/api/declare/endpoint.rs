//! What an endpoint is, as data: method and path, documentation, price,
//! plan gating, inputs (query parameters or a JSON body), the shape of its
//! answer and the error codes it may answer with. The route table
//! (`api::routes`) pairs each declaration with its handler; the dispatcher
//! checks query parameters, prices the call and shapes `meta` from it; the
//! OpenAPI document is generated from it.

use super::codes::{either, Code};
use super::field::Field;
use crate::accounts::Plan;

/// How a route is priced (reference §1.11).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cost {
    Free,
    PerCall(u64),
    /// One credit per row returned.
    PerRow,
    /// An e-mail unlock: this many credits the first time a user unlocks a
    /// person, 0 after; charged by the unlock itself, with it.
    Unlock(u64),
}

/// The keys of `meta`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MetaShape {
    /// `total_count` only (person lookups).
    CountOnly,
    /// `total_count, page, page_size, credits_used`, no balances (location
    /// and industry lookups: free, one page of at most `limit`).
    Paged,
    /// `total_count, page, page_size, credits_used` + balances.
    List,
    /// `page: 0, page_size: 1, credits_used` + balances.
    Detail,
    /// `page: 0, page_size: <items asked for or returned>, credits_used`,
    /// no balances (the alert endpoints, reference §10).
    Batch,
}

/// How a GET endpoint refuses query parameters it does not declare.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnknownParams {
    /// 400 `VALIDATION_ERROR`, one `UNKNOWN_PARAMETER` item per name.
    Validation,
    /// 400 `INVALID_PARAMETER` with `unknownParameters` (the history endpoints).
    InvalidParameter,
    /// 400 `INVALID_PARAMETERS` for any parameter at all (`/deals/{id}`).
    NoneAllowed,
    /// 422 `UNKNOWN_PARAMETER` in the ValidationError form, one item per
    /// name with its value and the allowed names (the alert endpoints).
    Unprocessable,
}

/// What a request carries besides its path.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Input {
    Query(&'static [Field], UnknownParams),
    /// A JSON object body (a blank body is `{}`).
    Body(&'static [Field]),
}

/// A response record type (`schema::record`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Record {
    Deal,
    Company,
    Investor,
    Person,
    CompanyCard,
    FirmCard,
    PersonCard,
    LocationCard,
    IndustryCard,
    PersonEmail,
    Alert,
    AlertConfiguration,
}

/// A key the server appends to a stored record for this endpoint.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Extra {
    /// A number, or null.
    Number(&'static str, &'static str),
    /// A whole number, or null.
    Count(&'static str, &'static str),
    /// A date-time string, or null.
    DateTime(&'static str, &'static str),
}

/// What `data` holds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Output {
    /// `data.{name}`: one record.
    One(&'static str, Record, &'static [Extra]),
    /// `data.{name}`: a page of records.
    List(&'static str, Record, &'static [Extra]),
    /// `data.investors` (firms with their partners) and
    /// `data.angel_investors` of a deal.
    Lineup,
    /// `data` is the record itself.
    Inline(Record),
}

/// Which plans may call an endpoint.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Gating {
    /// Every plan.
    Open,
    /// Only these plans; the others get 403 `code` (`UPGRADE_REQUIRED`,
    /// `API_TIER_REQUIRED`) saying `feature` requires one of them.
    Plans {
        plans: &'static [Plan],
        code: Code,
        feature: &'static str,
    },
}

impl Gating {
    /// Whether `plan` may call the endpoint.
    pub fn allows(&self, plan: Plan) -> bool {
        match self {
            Gating::Open => true,
            Gating::Plans { plans, .. } => plans.contains(&plan),
        }
    }

    /// "Pro+, Enterprise, or API".
    pub fn plans_text(&self) -> String {
        let allowed = Plan::ALL.into_iter().filter(|p| self.allows(*p));
        either(&allowed.map(Plan::display_name).collect::<Vec<_>>())
    }
}

/// One endpoint.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Endpoint {
    /// `operationId`.
    pub id: &'static str,
    pub method: &'static str,
    /// `/v1/...`; a `{name}` segment is a path parameter.
    pub path: &'static str,
    pub tag: &'static str,
    pub summary: &'static str,
    pub description: &'static str,
    pub cost: Cost,
    pub gating: Gating,
    pub path_params: &'static [Field],
    pub input: Input,
    pub output: Output,
    pub meta: MetaShape,
    /// The code a 400 the endpoint does not document is answered with
    /// (`VALIDATION_ERROR` wraps it as an item; any other code replaces
    /// it): so every answer keeps to the declared list.
    pub invalid: Code,
    /// Codes the endpoint itself answers with (authentication, rate
    /// limits, credits and internal errors apply to every endpoint and are
    /// added by [`Endpoint::all_errors`]).
    pub errors: &'static [Code],
    /// Whether its errors repeat the status as a top-level `statusCode`.
    pub status_code: bool,
    /// Not in the hosted API's documents: a documented extension.
    pub extension: bool,
}

/// Codes every authenticated endpoint may answer with.
pub const COMMON_ERRORS: &[Code] = &[
    Code::AuthError,
    Code::InvalidApiKey,
    Code::InactiveApiKey,
    Code::RateLimitExceeded,
    Code::InternalServerError,
    Code::ServiceUnavailable,
    Code::Timeout,
];

impl Endpoint {
    /// The query parameters (empty for a body endpoint).
    pub fn query(&self) -> &'static [Field] {
        match self.input {
            Input::Query(fields, _) => fields,
            Input::Body(_) => &[],
        }
    }

    /// Every code the endpoint may answer with, including the common ones
    /// and `INSUFFICIENT_CREDITS` where the call is charged.
    pub fn all_errors(&self) -> Vec<Code> {
        let mut all: Vec<Code> = COMMON_ERRORS.to_vec();
        if self.cost != Cost::Free {
            all.push(Code::InsufficientCredits);
        }
        if let Gating::Plans { code, .. } = self.gating {
            all.push(code);
        }
        if let Input::Body(_) = self.input {
            all.extend([
                Code::PayloadTooLarge,
                Code::RequestTimeout,
                Code::BadRequest,
            ]);
        }
        for code in self.errors {
            if !all.contains(code) {
                all.push(*code);
            }
        }
        all
    }

    /// The credit cost in words, for the document.
    pub fn cost_text(&self) -> String {
        match self.cost {
            Cost::Free => "Free (0 credits).".into(),
            Cost::PerCall(n) => format!("{n} credit(s) per call."),
            Cost::PerRow => "1 credit per row returned (0 for an empty page).".into(),
            Cost::Unlock(n) => format!("{n} credits for a new unlock; 0 when the user (with any of their keys) unlocked this person before."),
        }
    }
}
