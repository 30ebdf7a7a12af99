-- Derived tables the SQL peers query (scripts/bench/peers.py), computed from
-- the normalised dump tables (pg_schema.sql) by SQL alone, in the dialect
-- PostgreSQL 15 and DuckDB share. They state the derivations of
-- index_schema/README.md §6 independently of our indexer:
--   * deal recency: date desc (undated last), created_at desc (missing
--     last), id ascending -> deal_x.rank (1 = most recent);
--   * a company's latest deal is its deal of lowest rank; total raised =
--     sum of the known sizes; num_investors = distinct firms + distinct
--     angels; latest valuation = the valuation of its lowest-ranked deal
--     stating one; default order = latest deal's rank, none last, then id;
--   * firms and people: default order = most recent deal date desc, none
--     last, then id; a person's deals are the deals as angel or as a
--     partner of a firm, `led` when a firm they partnered for led it;
--   * the current employer is the first current employment naming an id.
-- Money is compared and sorted as whole USD (x rounded half up; amounts are
-- never negative), as the API does. Ids order as their text (= byte order).
-- Statements are separated by lines holding only ';;' (peers.py splits).

CREATE TABLE deal_x AS
SELECT d.id, d.company_id,
       d.round_type || CASE WHEN d.pre THEN '/pre' ELSE '' END
                    || CASE WHEN d.extension THEN '/ext' ELSE '' END AS round_key,
       d.date,
       CAST(d.created_at AS date) AS created_day,
       d.total_round_raised AS size,
       CAST(floor(d.total_round_raised + 0.5) AS bigint) AS size_usd,
       d.valuation_usd,
       row_number() OVER (ORDER BY d.date DESC NULLS LAST, d.created_at DESC NULLS LAST,
                                   CAST(d.id AS text)) AS rank
FROM deals d
;;
CREATE TABLE loc_closure AS
WITH RECURSIVE up(location, ancestor) AS (
  SELECT permalink, permalink FROM locations
  UNION
  SELECT u.location, l.parent
  FROM up u JOIN locations l ON l.permalink = u.ancestor
  WHERE l.parent IS NOT NULL
)
SELECT location, ancestor FROM up
;;
CREATE TABLE company_places AS
SELECT DISTINCT s.company_id, lc.ancestor AS location
FROM (SELECT id AS company_id, city AS slot FROM companies WHERE city IS NOT NULL
      UNION ALL SELECT id, state FROM companies WHERE state IS NOT NULL
      UNION ALL SELECT id, region FROM companies WHERE region IS NOT NULL
      UNION ALL SELECT id, country FROM companies WHERE country IS NOT NULL) s
JOIN loc_closure lc ON lc.location = s.slot
;;
CREATE TABLE company_supers AS
SELECT DISTINCT ci.company_id, s.super_category
FROM company_industries ci JOIN industry_super s ON s.industry = ci.industry
;;
CREATE TABLE company_x AS
WITH agg AS (
  SELECT company_id, min(rank) AS latest_rank, count(*) AS num_funding_rounds,
         sum(size) AS total_raised,
         min(CASE WHEN valuation_usd IS NOT NULL THEN rank END) AS valuation_rank
  FROM deal_x GROUP BY company_id
), firms AS (
  SELECT d.company_id, count(DISTINCT f.firm_id) AS n
  FROM deal_firms f JOIN deals d ON d.id = f.deal_id GROUP BY d.company_id
), angels AS (
  SELECT d.company_id, count(DISTINCT a.person_id) AS n
  FROM deal_angels a JOIN deals d ON d.id = a.deal_id GROUP BY d.company_id
)
SELECT c.id,
       lower(CASE WHEN c.domain LIKE 'www.%' THEN substr(c.domain, 5) ELSE c.domain END) AS domain_key,
       c.num_employees, c.ipo_status, c.founded_on,
       coalesce(a.num_funding_rounds, 0) AS num_funding_rounds,
       coalesce(fi.n, 0) + coalesce(an.n, 0) AS num_investors,
       CAST(floor(a.total_raised + 0.5) AS bigint) AS total_raised_usd,
       l.id AS latest_deal_id, l.round_key AS latest_round_key, l.date AS latest_date,
       l.created_day AS latest_created_day, l.size_usd AS latest_size_usd,
       CAST(floor(v.valuation_usd + 0.5) AS bigint) AS latest_valuation_usd,
       row_number() OVER (ORDER BY a.latest_rank ASC NULLS LAST, CAST(c.id AS text)) AS rank
FROM companies c
LEFT JOIN agg a ON a.company_id = c.id
LEFT JOIN firms fi ON fi.company_id = c.id
LEFT JOIN angels an ON an.company_id = c.id
LEFT JOIN deal_x l ON l.rank = a.latest_rank
LEFT JOIN deal_x v ON v.rank = a.valuation_rank
;;
CREATE TABLE firm_x AS
WITH recent AS (
  SELECT f.firm_id, max(d.date) AS most_recent_deal_date
  FROM deal_firms f JOIN deals d ON d.id = f.deal_id GROUP BY f.firm_id
)
SELECT f.id, r.most_recent_deal_date,
       row_number() OVER (ORDER BY r.most_recent_deal_date DESC NULLS LAST, CAST(f.id AS text)) AS rank
FROM firms f LEFT JOIN recent r ON r.firm_id = f.id
;;
CREATE TABLE person_deals AS
SELECT person_id, deal_id, bool_or(angel) AS angel, bool_or(partner) AS partner, bool_or(led) AS led
FROM (SELECT person_id, deal_id, true AS angel, false AS partner, false AS led FROM deal_angels
      UNION ALL
      SELECT p.person_id, p.deal_id, false, true, f.lead
      FROM deal_partners p JOIN deal_firms f ON f.deal_id = p.deal_id AND f.firm_id = p.firm_id) x
GROUP BY person_id, deal_id
;;
CREATE TABLE person_x AS
WITH recent AS (
  SELECT pd.person_id, max(d.date) AS most_recent_deal_date
  FROM person_deals pd JOIN deals d ON d.id = pd.deal_id GROUP BY pd.person_id
), employer AS (
  SELECT person_id, company_id FROM (
    SELECT person_id, company_id, row_number() OVER (PARTITION BY person_id ORDER BY ord) AS n
    FROM employment WHERE is_current AND company_id IS NOT NULL) e
  WHERE n = 1
)
SELECT p.id, r.most_recent_deal_date, r.person_id IS NOT NULL AS is_investor,
       c.id AS employer_company_id,
       row_number() OVER (ORDER BY r.most_recent_deal_date DESC NULLS LAST, CAST(p.id AS text)) AS rank
FROM people p
LEFT JOIN recent r ON r.person_id = p.id
LEFT JOIN employer e ON e.person_id = p.id
LEFT JOIN companies c ON c.id = e.company_id
