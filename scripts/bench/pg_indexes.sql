-- What a DBA would add so that PostgreSQL can serve the API (performance.md
-- §4.5: a B-tree on every filter and sort column, GIN on arrays, pg_trgm
-- GIN on the names of the fuzzy lookups), after the bulk load.

CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- keys
ALTER TABLE locations ADD PRIMARY KEY (permalink);
ALTER TABLE industries ADD PRIMARY KEY (permalink);
ALTER TABLE industry_super ADD PRIMARY KEY (industry, super_category);
ALTER TABLE companies ADD PRIMARY KEY (id);
ALTER TABLE company_industries ADD PRIMARY KEY (company_id, industry);
ALTER TABLE firms ADD PRIMARY KEY (id);
ALTER TABLE people ADD PRIMARY KEY (id);
ALTER TABLE employment ADD PRIMARY KEY (person_id, ord);
ALTER TABLE education ADD PRIMARY KEY (person_id, ord);
ALTER TABLE deals ADD PRIMARY KEY (id);
ALTER TABLE deal_firms ADD PRIMARY KEY (deal_id, firm_id);
ALTER TABLE deal_angels ADD PRIMARY KEY (deal_id, person_id);
ALTER TABLE financings ADD PRIMARY KEY (id);
ALTER TABLE articles ADD PRIMARY KEY (deal_id, ord);

-- catalog lookups (/location/search, /industry/search) and hierarchy
CREATE INDEX ON locations USING gin (name gin_trgm_ops);
CREATE INDEX ON locations (parent);
CREATE INDEX ON industries USING gin (name gin_trgm_ops);
CREATE INDEX ON industry_super (super_category, industry);

-- companies: identifiers, fuzzy name, filters
CREATE UNIQUE INDEX ON companies (permalink);
CREATE INDEX ON companies (domain);
CREATE INDEX ON companies (linkedin);
CREATE INDEX ON companies (crunchbase);
CREATE INDEX ON companies USING gin (name gin_trgm_ops);
CREATE INDEX ON companies (city);
CREATE INDEX ON companies (state);
CREATE INDEX ON companies (region);
CREATE INDEX ON companies (country);
CREATE INDEX ON companies (num_employees);
CREATE INDEX ON companies (ipo_status);
CREATE INDEX ON companies (founded_on);
CREATE INDEX ON company_industries (industry, company_id);

-- firms
CREATE UNIQUE INDEX ON firms (permalink);
CREATE INDEX ON firms (domain);
CREATE INDEX ON firms (linkedin);
CREATE INDEX ON firms (crunchbase);
CREATE INDEX ON firms USING gin (name gin_trgm_ops);
CREATE INDEX ON firms (city);
CREATE INDEX ON firms (state);
CREATE INDEX ON firms (region);
CREATE INDEX ON firms (country);
CREATE INDEX ON firms (num_employees);

-- people: identifiers, fuzzy name, person filters
CREATE INDEX ON people (linkedin_url);
CREATE INDEX ON people (crunchbase_url);
CREATE INDEX ON people (twitter_url);
CREATE INDEX ON people USING gin (name gin_trgm_ops);
CREATE INDEX ON people USING gin (roles);
CREATE INDEX ON people (title);
CREATE INDEX ON people (name);
CREATE INDEX ON employment (company_id) WHERE is_current;
CREATE INDEX ON employment (linkedin_company_id);
CREATE INDEX ON education (school_id);

-- deals: company history, filters and sorts, lineups
CREATE INDEX ON deals (company_id, date);
CREATE INDEX ON deals (date);
CREATE INDEX ON deals (created_at);
CREATE INDEX ON deals (total_round_raised);
CREATE INDEX ON deals (round_type);
CREATE INDEX ON deal_firms (firm_id, deal_id);
CREATE INDEX ON deal_partners (deal_id);
CREATE INDEX ON deal_partners (person_id);
CREATE INDEX ON deal_angels (person_id);
CREATE INDEX ON financings (deal_id);
CREATE INDEX ON financings (type);
CREATE INDEX ON financings (size_usd);
