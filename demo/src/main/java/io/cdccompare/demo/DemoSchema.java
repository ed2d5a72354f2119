package io.cdccompare.demo;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * The demo's sample shop: {@code customers} (even ids {@code 2..2n}), {@code orders} with a
 * composite key (three per customer) and {@code all_types} with a column of every logical type the
 * row hash knows, generated on the source in SQL; and the same tables, empty, on a PostgreSQL and a
 * MariaDB target. Rows with customer ids in the lower half are never touched by the {@link
 * LiveLoad}: the demo's injected differences live there.
 */
public final class DemoSchema {
  public static final String SCHEMA = "shop";
  public static final List<String> TABLES =
      List.of("shop.customers", "shop.orders", "shop.all_types");
  static final int ORDERS_PER_CUSTOMER = 3;

  private final int customers;
  private final int allTypes;

  /**
   * @param rows rows in all, at least 1 000: a quarter customers, the rest their orders, plus one
   *     {@code all_types} row per 40
   */
  public DemoSchema(int rows) {
    if (rows < 1_000) {
      throw new IllegalArgumentException("--rows must be at least 1000, was " + rows);
    }
    this.customers = rows / (ORDERS_PER_CUSTOMER + 1);
    this.allTypes = Math.max(100, rows / 40);
  }

  /** Customers in the source (ids {@code 2, 4, …, 2n}). */
  public int customers() {
    return customers;
  }

  /** Rows in all three tables right after {@link #fillSource}. */
  public long rows() {
    return (long) customers * (ORDERS_PER_CUSTOMER + 1) + allTypes;
  }

  /** Creates the tables on the source and fills them, in one transaction. */
  public void fillSource(Connection source) throws SQLException {
    source.setAutoCommit(false);
    try (Statement s = source.createStatement()) {
      createPostgresTables(s);
      s.execute(
          "INSERT INTO shop.customers SELECT 2 * g, 'Customer ' || g,"
              + " CASE WHEN g % 9 = 0 THEN NULL ELSE 'c' || g || '@example.com' END,"
              + " (ARRAY['DE','FR','US','JP','BR'])[1 + g % 5], round((g % 10000) * 1.37, 2),"
              + " g % 7 = 0, timestamptz '2024-01-01 00:00:00+00' + g * interval '37.5 seconds'"
              + " FROM generate_series(1, "
              + customers
              + ") g");
      s.execute(
          "INSERT INTO shop.orders SELECT 2 * c, o,"
              + " timestamp '2024-02-01' + (c * 3 + o) * interval '11.125 seconds',"
              + " round(((c * 31 + o * 17) % 50000) / 100.0, 2),"
              + " (ARRAY['new','paid','shipped','returned'])[1 + (c + o) % 4],"
              + " CASE WHEN (c + o) % 10 = 0 THEN NULL ELSE 'order ' || c || '/' || o END"
              + " FROM generate_series(1, "
              + customers
              + ") c, generate_series(1, "
              + ORDERS_PER_CUSTOMER
              + ") o");
      s.execute(
          "INSERT INTO shop.all_types SELECT g, (g % 32000)::smallint, g * 7, g::bigint * 1000003,"
              + " round(g * 1.000001, 6), (g / 7.0)::real, g / 3.0::float8, g % 2 = 0,"
              + " 'ch' || (g % 100), 'varchar ' || g,"
              + " CASE WHEN g % 10 = 0 THEN NULL ELSE repeat('text ', g % 5) || g END,"
              + " decode(md5(g::text), 'hex'),"
              + " overlay(overlay(md5(g::text) placing '4' from 13) placing 'a' from 17)::uuid,"
              + " CASE WHEN g % 10 = 0 THEN NULL ELSE jsonb_build_object('id', g,"
              + " 'tags', jsonb_build_array('a', g % 3), 'price', g * 1.5) END,"
              + " date '2020-01-01' + g, time '00:00:00' + g * interval '1.5 second',"
              + " timestamp '2024-01-01' + g * interval '60.25 second',"
              + " CASE WHEN g % 10 = 0 THEN NULL"
              + " ELSE timestamptz '2024-01-01 00:00:00+02' + g * interval '1 hour' END"
              + " FROM generate_series(1, "
              + allTypes
              + ") g");
      s.execute("ANALYZE shop.customers, shop.orders, shop.all_types");
      source.commit();
    } catch (SQLException e) {
      source.rollback();
      throw e;
    } finally {
      source.setAutoCommit(true);
    }
  }

  /** Creates the empty tables on a PostgreSQL target (schema {@code shop}). */
  public static void createOnPostgres(Connection target) throws SQLException {
    try (Statement s = target.createStatement()) {
      createPostgresTables(s);
    }
  }

  private static void createPostgresTables(Statement s) throws SQLException {
    s.execute("CREATE SCHEMA " + SCHEMA);
    s.execute(
        "CREATE TABLE shop.customers (id bigint PRIMARY KEY, name text NOT NULL,"
            + " email varchar(200), country char(2), balance numeric(12,2), vip boolean,"
            + " created_at timestamptz(6))");
    s.execute(
        "CREATE TABLE shop.orders (customer_id bigint NOT NULL, order_no int NOT NULL,"
            + " ordered_at timestamp(6), amount numeric(12,2), status varchar(20), note text,"
            + " PRIMARY KEY (customer_id, order_no))");
    s.execute(
        "CREATE TABLE shop.all_types (id int PRIMARY KEY, c_smallint smallint,"
            + " c_integer integer, c_bigint bigint, c_numeric numeric(20,6), c_real real,"
            + " c_double double precision, c_boolean boolean, c_char char(8),"
            + " c_varchar varchar(40), c_text text, c_bytea bytea, c_uuid uuid, c_json jsonb,"
            + " c_date date, c_time time(6), c_timestamp timestamp(6),"
            + " c_timestamptz timestamptz(6))");
  }

  /** Creates the empty tables on a MariaDB target (database {@code shop}, binary collation). */
  public static void createOnMariaDb(Connection target) throws SQLException {
    String options = " ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin";
    try (Statement s = target.createStatement()) {
      s.execute(
          "CREATE TABLE shop.customers (id BIGINT PRIMARY KEY, name TEXT NOT NULL,"
              + " email VARCHAR(200), country CHAR(2), balance DECIMAL(12,2), vip TINYINT(1),"
              + " created_at TIMESTAMP(6) NULL)"
              + options);
      s.execute(
          "CREATE TABLE shop.orders (customer_id BIGINT NOT NULL, order_no INT NOT NULL,"
              + " ordered_at DATETIME(6), amount DECIMAL(12,2), status VARCHAR(20), note TEXT,"
              + " PRIMARY KEY (customer_id, order_no))"
              + options);
      s.execute(
          "CREATE TABLE shop.all_types (id INT PRIMARY KEY, c_smallint SMALLINT,"
              + " c_integer INT, c_bigint BIGINT, c_numeric DECIMAL(20,6), c_real FLOAT,"
              + " c_double DOUBLE, c_boolean TINYINT(1), c_char CHAR(8),"
              + " c_varchar VARCHAR(40), c_text TEXT, c_bytea VARBINARY(64), c_uuid UUID,"
              + " c_json JSON, c_date DATE, c_time TIME(6), c_timestamp DATETIME(6),"
              + " c_timestamptz TIMESTAMP(6) NULL)"
              + options);
    }
  }

  /** Rows of the three tables in a database, summed (for the initial copy's progress). */
  public static long countRows(Connection db) throws SQLException {
    long rows = 0;
    try (Statement s = db.createStatement()) {
      for (String table : TABLES) {
        try (var rs = s.executeQuery("SELECT count(*) FROM " + table)) {
          rs.next();
          rows += rs.getLong(1);
        }
      }
    }
    return rows;
  }
}
