//! The validation problems of one request body, collected in one pass and
//! turned into the error response.
//!
//! Each problem remembers where it sits in the document (the index of every
//! key and array item on its path), so the response lists them in the order
//! the client wrote them, whatever order the endpoint reads its keys in.
//!
//! Status: 422 when any problem is an unknown parameter, an invalid enum
//! value, an invalid financing type or an empty array (reference §1.6, §2);
//! 400 otherwise (types, dates, UUIDs, ranges, blank strings, sizes).

use std::cell::RefCell;

use serde_json::Value;

use crate::api::errors::{ApiError, Code, Item};

pub const UNKNOWN_PARAMETER: Code = Code::UnknownParameter;
pub const INVALID_ENUM_VALUE: Code = Code::InvalidEnumValue;
pub const INVALID_FINANCING_TYPE: Code = Code::InvalidFinancingType;
pub const EMPTY_ARRAY_PARAMETER: Code = Code::EmptyArrayParameter;
/// A JSON value of the wrong type (a string for a number, a float for an integer…).
pub const INVALID_TYPE: Code = Code::InvalidType;
pub const INVALID_DATE: Code = Code::InvalidDate;
pub const INVALID_UUID: Code = Code::InvalidUuid;
pub const OUT_OF_RANGE: Code = Code::OutOfRange;
pub const INVALID_RANGE: Code = Code::InvalidRange;
pub const EMPTY_STRING: Code = Code::EmptyString;
pub const TOO_MANY_ITEMS: Code = Code::TooManyItems;
pub const REQUIRED_PARAMETER: Code = Code::RequiredParameter;

/// Where a value sits: the position of each key / item on its path.
pub type Order = Vec<u32>;

/// One entry of `details.errors`, with its place in the document.
#[derive(Debug, Clone, PartialEq)]
pub struct Problem {
    /// Dotted path (`deal.financing_types`).
    pub field: String,
    pub value: Value,
    pub message: String,
    pub code: Code,
    /// Allowed spellings (enums) or keys (unknown parameters); else empty.
    pub valid_options: Vec<String>,
    pub order: Order,
}

impl Problem {
    /// `item`, found at `order`.
    pub fn at(item: Item, order: Order) -> Problem {
        Problem {
            field: item.field,
            value: item.value,
            message: item.message,
            code: item.code,
            valid_options: item.valid_options,
            order,
        }
    }

    fn item(&self) -> Item {
        Item {
            field: self.field.clone(),
            value: self.value.clone(),
            message: self.message.clone(),
            code: self.code,
            valid_options: self.valid_options.clone(),
        }
    }
}

/// How the endpoint reports unknown parameters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorForm {
    /// Unknown parameters are ValidationError items like every other problem.
    Validation,
    /// POST `/people`: any unknown parameter answers the UnknownParamError
    /// body alone (`unknownParameters`, `allowedParameters`).
    People,
}

/// Problems found so far; shared by every reader of one body.
#[derive(Debug, Default)]
pub struct Problems {
    list: RefCell<Vec<Problem>>,
}

impl Problems {
    pub fn push(&self, problem: Problem) {
        self.list.borrow_mut().push(problem);
    }

    /// `Ok` when nothing was found; otherwise the error response.
    pub fn finish(self, form: ErrorForm) -> Result<(), ApiError> {
        let mut list = self.list.into_inner();
        if list.is_empty() {
            return Ok(());
        }
        list.sort_by(|a, b| a.order.cmp(&b.order));
        let unknown: Vec<&Problem> = list
            .iter()
            .filter(|p| p.code == UNKNOWN_PARAMETER)
            .collect();
        if form == ErrorForm::People && !unknown.is_empty() {
            let names = unknown.iter().map(|p| p.field.clone()).collect();
            return Err(ApiError::unknown_parameters(
                names,
                unknown[0].valid_options.clone(),
            ));
        }
        let code = if unknown.is_empty() {
            Code::ValidationError
        } else {
            UNKNOWN_PARAMETER
        };
        let items: Vec<Item> = list.iter().map(Problem::item).collect();
        Err(ApiError::validation(code, &items))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::body::test_support::error_fields;
    use serde_json::json;

    fn problem(field: &str, code: Code, order: Order) -> Problem {
        Problem {
            field: field.into(),
            value: Value::Null,
            message: format!("{field} is wrong"),
            code,
            valid_options: vec!["a".into()],
            order,
        }
    }

    #[test]
    fn nothing_found_is_ok() {
        assert_eq!(Problems::default().finish(ErrorForm::Validation), Ok(()));
    }

    #[test]
    fn problems_come_out_in_document_order_with_the_documented_shape() {
        let p = Problems::default();
        p.push(problem("deal.size_min", OUT_OF_RANGE, vec![1, 0]));
        p.push(problem("page", INVALID_TYPE, vec![0]));
        p.push(problem("deal.date_start", INVALID_DATE, vec![1, 2]));
        let e = p.finish(ErrorForm::Validation).unwrap_err();
        assert_eq!(
            (e.status, e.code.as_str(), e.message.as_str()),
            (400, "VALIDATION_ERROR", "Invalid request parameters")
        );
        let fields = error_fields(&e);
        assert_eq!(fields, ["page", "deal.size_min", "deal.date_start"]);
        assert_eq!(
            e.details["errors"][0],
            json!({"field": "page", "value": null, "message": "page is wrong", "code": "INVALID_TYPE", "validOptions": ["a"]})
        );
        assert!(e.details["help"]
            .as_str()
            .unwrap()
            .starts_with("Please check your request parameters"));
    }

    #[test]
    fn status_is_422_for_the_unprocessable_codes_only() {
        for (code, status) in [
            (INVALID_ENUM_VALUE, 422),
            (INVALID_FINANCING_TYPE, 422),
            (EMPTY_ARRAY_PARAMETER, 422),
            (TOO_MANY_ITEMS, 400),
            (INVALID_RANGE, 400),
        ] {
            let p = Problems::default();
            p.push(problem("x", OUT_OF_RANGE, vec![0]));
            p.push(problem("y", code, vec![1]));
            let e = p.finish(ErrorForm::Validation).unwrap_err();
            assert_eq!(
                (e.status, e.code.as_str()),
                (status, "VALIDATION_ERROR"),
                "{code}"
            );
        }
    }

    #[test]
    fn unknown_parameters_set_the_top_code() {
        let p = Problems::default();
        p.push(problem("page", INVALID_TYPE, vec![0]));
        p.push(problem("bogus", UNKNOWN_PARAMETER, vec![1]));
        let e = p.finish(ErrorForm::Validation).unwrap_err();
        assert_eq!((e.status, e.code.as_str()), (422, "UNKNOWN_PARAMETER"));
        assert_eq!(e.details["errors"].as_array().unwrap().len(), 2);
    }

    #[test]
    fn people_form_answers_unknown_parameters_alone() {
        let p = Problems::default();
        p.push(problem("page", INVALID_TYPE, vec![0]));
        p.push(problem("person.other", UNKNOWN_PARAMETER, vec![2, 1]));
        p.push(problem("person.bogus", UNKNOWN_PARAMETER, vec![2, 0]));
        let e = p.finish(ErrorForm::People).unwrap_err();
        assert_eq!((e.status, e.code.as_str()), (422, "UNKNOWN_PARAMETER"));
        assert_eq!(
            e.message,
            "Unknown parameter(s): person.bogus, person.other. Allowed parameters: a"
        );
        assert_eq!(
            e.details,
            json!({"unknownParameters": ["person.bogus", "person.other"], "allowedParameters": ["a"]})
        );
    }

    #[test]
    fn people_form_without_unknowns_is_the_validation_form() {
        let p = Problems::default();
        p.push(problem("sort_by", INVALID_ENUM_VALUE, vec![0]));
        let e = p.finish(ErrorForm::People).unwrap_err();
        assert_eq!((e.status, e.code.as_str()), (422, "VALIDATION_ERROR"));
    }
}
