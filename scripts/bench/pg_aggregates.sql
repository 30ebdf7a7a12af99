-- The derived aggregates the index also holds (company totals and latest
-- round; firm and person deal counts, last-12-months counts, most recent
-- deal), materialised as tables with a B-tree per sort/filter column, as a
-- DBA would do to serve the API's sorts (`largest_total_raise`,
-- `most_recent_raise`, `total_deals`, `recent_deals`...) without a GROUP BY
-- per request. psql variable :as_of = the index's as-of date.

CREATE TABLE company_stats AS
WITH latest AS (
  SELECT DISTINCT ON (company_id) company_id, id, date, round_type, total_round_raised, created_at
  FROM deals
  ORDER BY company_id, date DESC NULLS LAST, created_at DESC NULLS LAST, id
), totals AS (
  SELECT company_id, sum(total_round_raised) AS total_raised, count(*) AS num_funding_rounds
  FROM deals GROUP BY company_id
), investors AS (
  SELECT d.company_id, count(DISTINCT f.firm_id) AS num_investors
  FROM deals d JOIN deal_firms f ON f.deal_id = d.id GROUP BY d.company_id
), valuation AS (
  SELECT DISTINCT ON (company_id) company_id, valuation_usd, date AS valuation_date
  FROM deals WHERE valuation_usd IS NOT NULL
  ORDER BY company_id, date DESC NULLS LAST, id
)
SELECT c.id AS company_id, t.total_raised, coalesce(t.num_funding_rounds, 0) AS num_funding_rounds,
       coalesce(i.num_investors, 0) AS num_investors,
       l.id AS latest_deal_id, l.date AS latest_deal_date, l.round_type AS latest_deal_type,
       l.total_round_raised AS latest_deal_size, l.created_at AS latest_deal_created_at,
       v.valuation_usd AS latest_valuation_usd, v.valuation_date AS latest_valuation_date
FROM companies c
LEFT JOIN totals t ON t.company_id = c.id
LEFT JOIN investors i ON i.company_id = c.id
LEFT JOIN latest l ON l.company_id = c.id
LEFT JOIN valuation v ON v.company_id = c.id;

ALTER TABLE company_stats ADD PRIMARY KEY (company_id);
CREATE INDEX ON company_stats (total_raised);
CREATE INDEX ON company_stats (num_funding_rounds);
CREATE INDEX ON company_stats (num_investors);
CREATE INDEX ON company_stats (latest_deal_date);
CREATE INDEX ON company_stats (latest_deal_type);
CREATE INDEX ON company_stats (latest_deal_size);
CREATE INDEX ON company_stats (latest_deal_created_at);
CREATE INDEX ON company_stats (latest_valuation_usd);

CREATE TABLE firm_stats AS
SELECT f.firm_id,
       count(*) AS total_deal_count,
       count(*) FILTER (WHERE f.lead) AS lead_deal_count,
       count(*) FILTER (WHERE d.date >= (:'as_of'::date - interval '1 year')) AS deal_count_last_12_months,
       count(*) FILTER (WHERE f.lead AND d.date >= (:'as_of'::date - interval '1 year')) AS lead_deal_count_last_12_months,
       max(d.date) AS most_recent_deal_date
FROM deal_firms f JOIN deals d ON d.id = f.deal_id
GROUP BY f.firm_id;

ALTER TABLE firm_stats ADD PRIMARY KEY (firm_id);
CREATE INDEX ON firm_stats (total_deal_count);
CREATE INDEX ON firm_stats (lead_deal_count);
CREATE INDEX ON firm_stats (deal_count_last_12_months);
CREATE INDEX ON firm_stats (lead_deal_count_last_12_months);
CREATE INDEX ON firm_stats (most_recent_deal_date);

CREATE TABLE person_stats AS
WITH person_deals AS (
  SELECT a.person_id, a.deal_id, false AS lead FROM deal_angels a
  UNION
  SELECT p.person_id, p.deal_id, f.lead
  FROM deal_partners p JOIN deal_firms f ON f.deal_id = p.deal_id AND f.firm_id = p.firm_id
)
SELECT pd.person_id,
       count(DISTINCT pd.deal_id) AS total_deal_count,
       count(DISTINCT pd.deal_id) FILTER (WHERE pd.lead) AS lead_deal_count,
       count(DISTINCT pd.deal_id) FILTER (WHERE d.date >= (:'as_of'::date - interval '1 year')) AS deal_count_last_12_months,
       count(DISTINCT pd.deal_id) FILTER (WHERE pd.lead AND d.date >= (:'as_of'::date - interval '1 year')) AS lead_deal_count_last_12_months,
       max(d.date) AS most_recent_deal_date
FROM person_deals pd JOIN deals d ON d.id = pd.deal_id
GROUP BY pd.person_id;

ALTER TABLE person_stats ADD PRIMARY KEY (person_id);
CREATE INDEX ON person_stats (total_deal_count);
CREATE INDEX ON person_stats (lead_deal_count);
CREATE INDEX ON person_stats (deal_count_last_12_months);
CREATE INDEX ON person_stats (lead_deal_count_last_12_months);
CREATE INDEX ON person_stats (most_recent_deal_date);
