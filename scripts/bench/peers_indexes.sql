-- PostgreSQL indexes on the peers' derived tables (peers_derived.sql): a
-- B-tree per filter, join and sort column, as a DBA serving the API would
-- add. DuckDB gets none (it scans with zone maps; ART indexes only serve
-- point lookups). Statements are separated by lines holding only ';;'.
ALTER TABLE deal_x ADD PRIMARY KEY (id)
;;
CREATE INDEX ON deal_x (rank)
;;
CREATE INDEX ON deal_x (company_id)
;;
CREATE INDEX ON deal_x (round_key, rank)
;;
CREATE INDEX ON deal_x (date)
;;
CREATE INDEX ON deal_x (size_usd)
;;
CREATE INDEX ON loc_closure (location)
;;
CREATE INDEX ON company_places (location, company_id)
;;
CREATE INDEX ON company_places (company_id, location)
;;
CREATE INDEX ON company_supers (super_category, company_id)
;;
CREATE INDEX ON company_supers (company_id, super_category)
;;
ALTER TABLE company_x ADD PRIMARY KEY (id)
;;
CREATE INDEX ON company_x (rank)
;;
CREATE INDEX ON company_x (domain_key)
;;
CREATE INDEX ON company_x (latest_round_key, rank)
;;
CREATE INDEX ON company_x (latest_date)
;;
CREATE INDEX ON company_x (latest_size_usd)
;;
CREATE INDEX ON company_x (total_raised_usd)
;;
CREATE INDEX ON company_x (latest_valuation_usd)
;;
CREATE INDEX ON company_x (founded_on)
;;
CREATE INDEX ON company_x (num_funding_rounds)
;;
CREATE INDEX ON company_x (num_investors)
;;
CREATE INDEX ON company_x (num_employees)
;;
ALTER TABLE firm_x ADD PRIMARY KEY (id)
;;
ALTER TABLE person_deals ADD PRIMARY KEY (person_id, deal_id)
;;
CREATE INDEX ON person_deals (deal_id)
;;
ALTER TABLE person_x ADD PRIMARY KEY (id)
;;
CREATE INDEX ON person_x (employer_company_id)
;;
CREATE INDEX ON person_x (rank)
;;
CREATE INDEX ON person_roles (role, person_id)
;;
CREATE INDEX ON person_roles (person_id)
