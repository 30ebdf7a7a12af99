-- Normalised tables for the canonical dump (the same data the index holds).
-- Loaded by scripts/bench/pg_size.sh from the CSV files of pg_csv.py;
-- column order matches pg_csv.py. Enums are text (as a schema evolving with
-- the reference API would keep them); money is double precision like the
-- dump; ids are uuid. Keys and indexes come after the load
-- (pg_indexes.sql), as for any bulk load.

CREATE TABLE locations (
  permalink text,
  name text NOT NULL,
  type text NOT NULL,
  parent text
);

CREATE TABLE industries (
  permalink text,
  name text NOT NULL,
  type text NOT NULL
);

CREATE TABLE industry_super (
  industry text NOT NULL,
  super_category text NOT NULL
);

CREATE TABLE companies (
  id uuid,
  name text NOT NULL,
  permalink text NOT NULL,
  legal_name text,
  domain text,
  short_description text,
  long_description text,
  num_employees text,
  ipo_status text,
  founded_on date,
  linkedin text,
  twitter text,
  facebook text,
  pitchbook text,
  crunchbase text,
  address text,
  city text,
  state text,
  region text,
  country text
);

CREATE TABLE company_industries (
  company_id uuid NOT NULL,
  industry text NOT NULL
);

CREATE TABLE firms (
  id uuid,
  name text NOT NULL,
  permalink text NOT NULL,
  legal_name text,
  description text,
  domain text,
  website text,
  linkedin text,
  pitchbook text,
  crunchbase text,
  image text,
  num_employees text,
  investment_stage text,
  contact_email text,
  contact_phone text,
  city text,
  state text,
  region text,
  country text
);

CREATE TABLE people (
  id uuid,
  name text NOT NULL,
  title text,
  linkedin_url text,
  crunchbase_url text,
  twitter_url text,
  location text,
  city text,
  country_code text,
  about text,
  roles text[],
  email text,
  phone text
);

CREATE TABLE employment (
  person_id uuid NOT NULL,
  ord smallint NOT NULL,
  title text,
  company_id uuid,
  company_name text,
  company_url text,
  linkedin_company_id text,
  location text,
  description text,
  start_date date,
  end_date date,
  is_current boolean NOT NULL
);

CREATE TABLE education (
  person_id uuid NOT NULL,
  ord smallint NOT NULL,
  school_name text,
  school_id text,
  school_url text,
  degree text,
  field_of_study text,
  start_date text,
  end_date text,
  description text
);

CREATE TABLE deals (
  id uuid,
  company_id uuid NOT NULL,
  round_type text NOT NULL,
  pre boolean NOT NULL,
  extension boolean NOT NULL,
  intermediate text,
  date date,
  created_at timestamptz,
  total_round_raised double precision,
  short_description text,
  long_description text,
  valuation_type text,
  valuation_currency text,
  valuation_usd double precision,
  valuation_native double precision
);

CREATE TABLE deal_firms (
  deal_id uuid NOT NULL,
  firm_id uuid NOT NULL,
  lead boolean NOT NULL,
  financing_type text
);

CREATE TABLE deal_partners (
  deal_id uuid NOT NULL,
  firm_id uuid NOT NULL,
  person_id uuid NOT NULL
);

CREATE TABLE deal_angels (
  deal_id uuid NOT NULL,
  person_id uuid NOT NULL,
  financing_type text
);

CREATE TABLE financings (
  id uuid NOT NULL,
  deal_id uuid NOT NULL,
  type text NOT NULL,
  size_usd double precision,
  size_native double precision,
  currency text
);

CREATE TABLE articles (
  deal_id uuid NOT NULL,
  ord smallint NOT NULL,
  link text,
  date date,
  is_primary boolean NOT NULL
);
