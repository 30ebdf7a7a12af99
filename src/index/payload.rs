//! Meanings of the payload byte of the relations that carry one.
//!
//! | relation | payload |
//! |---|---|
//! | `deals.firms` | bit 7 [`FIRM_LED`]: the firm led the round; low bits: the firm's financing type + 1 (0 = none) |
//! | `deals.angels` | the angel's financing type + 1 (0 = none) |
//! | `deals.partners` | the slot of the partner's firm among the deal's firms (ascending doc ids) |
//! | `deals.participants` | [`PARTICIPANT_ANGEL`] / [`PARTICIPANT_PARTNER`] / [`PARTICIPANT_LEAD`], OR'ed per person |
//! | `investors.deals`, `people.partner_deals` | 1 when the firm led the deal |

/// `deals.firms`: the firm led the round.
pub const FIRM_LED: u8 = 0x80;
/// `deals.participants`: the person took part as an angel.
pub const PARTICIPANT_ANGEL: u8 = 1;
/// `deals.participants`: the person took part as partner of a firm.
pub const PARTICIPANT_PARTNER: u8 = 2;
/// `deals.participants`: the person is partner of a firm that led the deal.
pub const PARTICIPANT_LEAD: u8 = 4;
