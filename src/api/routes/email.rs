//! `GET /person/email` (reference §8.3): a person's verified e-mail,
//! unlocked for the caller's user. The unlock and its charge (5 credits the
//! first time, 0 after) are one durable change in the account store; the
//! dispatcher charges nothing more. Plan gating is the endpoint's
//! declaration (`api::declare::endpoints::PERSON_EMAIL`).

use crate::api::envelope::{Data, Raw};
use crate::api::errors::{ApiError, Code};
use crate::api::handler::{Ctx, Reply};
use crate::query::resolve::{person_identifier, resolve, IdentifierKind};
use crate::schema::record::PersonEmail;

use super::detail::{detail_of, person_not_found, PERSON_KINDS};
use super::support::internal;

/// Credits of a new unlock.
const UNLOCK_CREDITS: u64 = 5;

/// The first non-empty identifier, in the documented precedence.
fn identifier<'q>(ctx: &'q Ctx) -> Result<(IdentifierKind, &'q str), ApiError> {
    PERSON_KINDS
        .iter()
        .find_map(|&k| ctx.query.non_empty(k.param()).map(|v| (k, v)))
        .ok_or_else(|| {
            ApiError::with_help(
                Code::MissingIdentifier,
                &[("what", "Person")],
                "Provide id, linkedin, crunchbase, or twitter.",
            )
        })
}

fn invalid(kind: IdentifierKind, value: &str) -> ApiError {
    let code = match kind {
        IdentifierKind::Id => Code::InvalidId,
        _ => Code::InvalidIdentifier,
    };
    let help = "Provide a UUID, a LinkedIn or Crunchbase URL or slug, or a Twitter URL or handle.";
    ApiError::with_help(code, &[("param", kind.param()), ("value", value)], help)
}

pub fn person_email(ctx: &Ctx) -> Result<Reply, ApiError> {
    let (kind, value) = identifier(ctx)?;
    let id = person_identifier(kind, value).map_err(|_| invalid(kind, value))?;
    let people = &ctx.index.people;
    let doc = *resolve(people, &id).first().ok_or_else(person_not_found)?;
    let emails = people.records("email").map_err(internal)?;
    let email = String::from_utf8_lossy(&emails.get(doc).map_err(internal)?).into_owned();
    if email.is_empty() {
        return Err(ApiError::with_help(
            Code::EmailNotFound,
            &[],
            "No unlock was made and nothing was charged.",
        ));
    }
    let person_id = people.ids.uuid(doc);
    let unlocked = ctx
        .app
        .accounts
        .unlock_email(ctx.principal, person_id, UNLOCK_CREDITS, chrono::Utc::now())
        .map_err(internal)?;
    let unlock = unlocked.map_err(|short| {
        let balance = short.balance;
        ApiError::insufficient_credits(
            "unlock this email",
            short.credits_needed,
            balance.monthly_remaining,
            balance.purchased_remaining,
        )
    })?;
    let data = PersonEmail {
        person_id,
        email,
        already_unlocked: unlock.already_unlocked,
    };
    let mut reply = detail_of(Data::record(Raw::from_serialize(&data)));
    reply.charged = Some(unlock.charge);
    Ok(reply)
}
