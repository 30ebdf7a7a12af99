use fundsearch::ingest::{derive::derive, load_dump};
fn rss() -> u64 {
    let s = std::fs::read_to_string("/proc/self/status").unwrap();
    s.lines().find(|l| l.starts_with("VmRSS")).unwrap().split_whitespace().nth(1).unwrap().parse::<u64>().unwrap() / 1024
}
fn main() {
    let dir = std::env::args().nth(1).unwrap();
    println!("start {} MB", rss());
    let l = load_dump(std::path::Path::new(&dir), false).unwrap();
    let f = &l.facts;
    println!("loaded {} MB", rss());
    for (n, len, b) in [("companies", f.companies.len(), f.companies.packed_bytes()), ("firms", f.firms.len(), f.firms.packed_bytes()), ("people", f.people.len(), f.people.packed_bytes()), ("deals", f.deals.len(), f.deals.packed_bytes())] {
        println!("{n}: {len} rows, {} MB packed, {} B/row packed, +24 B/row ids/starts", b >> 20, b / len.max(1));
    }
    let d = derive(f, fundsearch::schema::Date::parse("2026-11-01").unwrap());
    println!("derived {} MB; investors {}", rss(), d.people.stored());
    let ca: usize = d.companies.iter().map(|c| 4 * (c.deals.capacity() + c.all_investors.capacity() + c.investor_people.capacity()) + std::mem::size_of_val(c)).sum();
    println!("company aggs ~{} MB", ca >> 20);
}
