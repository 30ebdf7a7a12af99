//! The id maps of the four entity kinds together: what the references in
//! stored records ([`super::store::refs`]) resolve against when read.

use super::keymap::IdMap;
use super::store::refs::{RefKind, Uuids};

/// Company, deal, firm and person id maps, in [`RefKind`] order.
pub struct EntityIds {
    maps: [IdMap; 4],
}

impl EntityIds {
    pub fn new(companies: &IdMap, deals: &IdMap, firms: &IdMap, people: &IdMap) -> EntityIds {
        let maps = [companies, deals, firms, people].map(IdMap::clone);
        EntityIds { maps }
    }
}

impl Uuids for EntityIds {
    fn uuid(&self, kind: RefKind, doc: u32) -> Option<u128> {
        let map = &self.maps[kind as usize];
        ((doc as usize) < map.len()).then(|| map.uuid(doc).as_u128())
    }
}
