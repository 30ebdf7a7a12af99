//! [`Session`]: a pool thread's connection with its prepared statements.
//!
//! The synchronous client prepares an unnamed statement for every call
//! made with SQL text, which costs a round trip of its own (Parse and
//! Describe, then Bind and Execute). A session prepares each SQL string
//! once per connection, keyed by the `&'static str` itself, and reuses the
//! statement afterwards: one round trip per statement. Statements belong to
//! their connection, so the cache lives and dies with the client (the pool
//! drops both when it reconnects). [`Session::transaction`] yields a
//! [`Tx`] that uses the same cache; both speak through the [`Sql`] trait,
//! so code that may run in or out of a transaction takes `&mut impl Sql`.

use std::collections::HashMap;

use postgres::types::ToSql;
use postgres::{Client, Error, GenericClient, Row, Statement, Transaction};

type Statements = HashMap<&'static str, Statement>;
type Params<'p> = &'p [&'p (dyn ToSql + Sync)];

/// A client and the statements prepared on its connection.
pub struct Session {
    pub client: Client,
    statements: Statements,
}

impl Session {
    pub fn new(client: Client) -> Session {
        Session {
            client,
            statements: Statements::new(),
        }
    }

    /// Begins a transaction whose statements go through the same cache.
    pub fn transaction(&mut self) -> Result<Tx<'_>, Error> {
        Ok(Tx {
            tx: self.client.transaction()?,
            statements: &mut self.statements,
        })
    }
}

/// A transaction of a [`Session`]; rolled back when dropped uncommitted.
pub struct Tx<'a> {
    tx: Transaction<'a>,
    statements: &'a mut Statements,
}

impl Tx<'_> {
    pub fn commit(self) -> Result<(), Error> {
        self.tx.commit()
    }
}

/// Statements by SQL text, each prepared once per connection.
pub trait Sql {
    type Client: GenericClient;

    /// The client (or transaction) and its connection's statements.
    fn parts(&mut self) -> (&mut Self::Client, &mut Statements);

    /// `sql` prepared on this connection, from the cache after the first time.
    fn prepared(&mut self, sql: &'static str) -> Result<(&mut Self::Client, Statement), Error> {
        let (client, statements) = self.parts();
        if let Some(statement) = statements.get(sql) {
            return Ok((client, statement.clone()));
        }
        let statement = client.prepare(sql)?;
        statements.insert(sql, statement.clone());
        Ok((client, statement))
    }

    fn query(&mut self, sql: &'static str, params: Params<'_>) -> Result<Vec<Row>, Error> {
        let (client, statement) = self.prepared(sql)?;
        client.query(&statement, params)
    }

    fn query_opt(&mut self, sql: &'static str, params: Params<'_>) -> Result<Option<Row>, Error> {
        let (client, statement) = self.prepared(sql)?;
        client.query_opt(&statement, params)
    }

    fn query_one(&mut self, sql: &'static str, params: Params<'_>) -> Result<Row, Error> {
        let (client, statement) = self.prepared(sql)?;
        client.query_one(&statement, params)
    }

    fn execute(&mut self, sql: &'static str, params: Params<'_>) -> Result<u64, Error> {
        let (client, statement) = self.prepared(sql)?;
        client.execute(&statement, params)
    }
}

impl Sql for Session {
    type Client = Client;

    fn parts(&mut self) -> (&mut Client, &mut Statements) {
        (&mut self.client, &mut self.statements)
    }
}

impl<'a> Sql for Tx<'a> {
    type Client = Transaction<'a>;

    fn parts(&mut self) -> (&mut Transaction<'a>, &mut Statements) {
        (&mut self.tx, self.statements)
    }
}
