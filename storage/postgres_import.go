package storage

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
)

// Source is a database whose rows Import copies: the SQLite backend
// (a DB on SQLite) is one.
type Source interface {
	// Tables names the tables of the source's data, its migration
	// bookkeeping excluded.
	Tables(ctx context.Context) ([]string, error)
	// CountRows returns how many rows the table holds.
	CountRows(ctx context.Context, table string) (int64, error)
	// ExportRows calls fn with the column names and values of each row of
	// the table, values being int64, float64, bool, string, []byte or nil,
	// and stops at fn's first error, returning it.
	ExportRows(ctx context.Context, table string, fn func(columns []string, values []any) error) error
}

// TableCount is how many rows of one table Import copied.
type TableCount struct {
	Table string
	Rows  int64
}

// importBatch is how many rows go to PostgreSQL in one COPY.
const importBatch = 1000

// Import copies every row of src into this database, which must be empty,
// in one transaction: parents before the tables that refer to them,
// identity counters moved past the copied ids, and each table's count
// checked against the source's before committing. Values are converted to
// the column types here: instants written as RFC 3339 text become
// nanoseconds, 0 and 1 become booleans. It fails, copying nothing, when the
// database holds any row, when the source has a table or column this
// schema lacks, or when a value does not convert; the error names the
// table, column and value.
func (s *DB) Import(ctx context.Context, src Source) ([]TableCount, error) {
	srcTables, err := src.Tables(ctx)
	if err != nil {
		return nil, fmt.Errorf("storage: import: list source tables: %w", err)
	}
	var out []TableCount
	err = s.pgxTx(ctx, func(tx pgx.Tx) error {
		schema, err := readSchema(ctx, tx)
		if err != nil {
			return err
		}
		for _, name := range srcTables {
			if _, ok := schema.columns[name]; !ok {
				return fmt.Errorf("the source has a table %q that this PostgreSQL schema lacks: upgrade learn, or migrate with the same version that wrote the source", name)
			}
		}
		for _, name := range schema.order {
			var any bool
			if err := tx.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM "+ident(name)+")").Scan(&any); err != nil {
				return fmt.Errorf("check %s is empty: %w", name, err)
			}
			if any {
				return fmt.Errorf("the target database is not empty (table %s has rows): migrate-db copies only into a new, empty database", name)
			}
		}
		copying := map[string]bool{}
		for _, name := range srcTables {
			copying[name] = true
		}
		for _, name := range schema.order {
			if !copying[name] {
				continue
			}
			n, err := copyTable(ctx, tx, src, name, schema.columns[name])
			if err != nil {
				return err
			}
			if err := resetIdentities(ctx, tx, name, schema.columns[name]); err != nil {
				return err
			}
			want, err := src.CountRows(ctx, name)
			if err != nil {
				return fmt.Errorf("count source rows of %s: %w", name, err)
			}
			var got int64
			if err := tx.QueryRow(ctx, "SELECT count(*) FROM "+ident(name)).Scan(&got); err != nil {
				return fmt.Errorf("count rows of %s: %w", name, err)
			}
			if got != want || n != want {
				return fmt.Errorf("table %s: the source holds %d rows, %d were copied and the target holds %d (was the source written to during the copy? stop every server first)", name, want, n, got)
			}
			out = append(out, TableCount{Table: name, Rows: got})
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("storage: import: %w", err)
	}
	return out, nil
}

// pgxTx runs fn in a transaction of pgx's own, on one connection of the
// pool: COPY is pgx's, not database/sql's.
func (s *DB) pgxTx(ctx context.Context, fn func(tx pgx.Tx) error) error {
	if s.e != &postgresEngine {
		return errors.New("the target is not a PostgreSQL database")
	}
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	return conn.Raw(func(dc any) error {
		tx, err := dc.(*stdlib.Conn).Conn().Begin(ctx)
		if err != nil {
			return fmt.Errorf("begin: %w", err)
		}
		if err := fn(tx); err != nil {
			_ = tx.Rollback(ctx)
			return err
		}
		return tx.Commit(ctx)
	})
}

// column is one column of the target schema.
type column struct {
	name, dataType string
	identity       bool
}

// schema is the target's tables: their columns, and an order in which
// every table comes after the tables it refers to.
type schema struct {
	columns map[string]map[string]column
	order   []string
}

func readSchema(ctx context.Context, tx pgx.Tx) (schema, error) {
	sc := schema{columns: map[string]map[string]column{}}
	rows, err := tx.Query(ctx, `SELECT c.table_name, c.column_name, c.data_type, c.is_identity = 'YES'
		FROM information_schema.columns c JOIN information_schema.tables t
		ON t.table_schema = c.table_schema AND t.table_name = c.table_name
		WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE' AND c.table_name <> 'schema_migrations'`)
	if err != nil {
		return sc, fmt.Errorf("read schema: %w", err)
	}
	for rows.Next() {
		var table string
		var col column
		if err := rows.Scan(&table, &col.name, &col.dataType, &col.identity); err != nil {
			rows.Close()
			return sc, fmt.Errorf("read schema: %w", err)
		}
		if sc.columns[table] == nil {
			sc.columns[table] = map[string]column{}
		}
		sc.columns[table][col.name] = col
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return sc, fmt.Errorf("read schema: %w", err)
	}
	refs := map[string][]string{}
	rows, err = tx.Query(ctx, `SELECT c.conrelid::regclass::text, c.confrelid::regclass::text FROM pg_constraint c
		WHERE c.contype = 'f' AND c.connamespace = current_schema()::regnamespace`)
	if err != nil {
		return sc, fmt.Errorf("read foreign keys: %w", err)
	}
	for rows.Next() {
		var from, to string
		if err := rows.Scan(&from, &to); err != nil {
			rows.Close()
			return sc, fmt.Errorf("read foreign keys: %w", err)
		}
		refs[from] = append(refs[from], to)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return sc, fmt.Errorf("read foreign keys: %w", err)
	}
	sc.order, err = parentsFirst(sc.columns, refs)
	return sc, err
}

// parentsFirst orders tables so that each follows those it refers to,
// alphabetically among equals.
func parentsFirst(tables map[string]map[string]column, refs map[string][]string) ([]string, error) {
	var names []string
	for name := range tables {
		names = append(names, name)
	}
	sort.Strings(names)
	placed := map[string]bool{}
	var order []string
	for len(order) < len(names) {
		progressed := false
		for _, name := range names {
			if placed[name] {
				continue
			}
			ready := true
			for _, parent := range refs[name] {
				if parent != name && !placed[parent] {
					ready = false
				}
			}
			if ready {
				placed[name] = true
				order = append(order, name)
				progressed = true
			}
		}
		if !progressed {
			return nil, errors.New("the tables' foreign keys form a cycle; migrate-db cannot order them")
		}
	}
	return order, nil
}

// copyTable copies one table in batches of COPY and returns the rows sent.
func copyTable(ctx context.Context, tx pgx.Tx, src Source, table string, cols map[string]column) (int64, error) {
	var names []string
	var batch [][]any
	var sent, read int64
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		n, err := tx.CopyFrom(ctx, pgx.Identifier{table}, names, pgx.CopyFromRows(batch))
		if err != nil {
			return fmt.Errorf("copy into %s: %w", table, err)
		}
		sent += n
		batch = batch[:0]
		return nil
	}
	err := src.ExportRows(ctx, table, func(columns []string, values []any) error {
		if names == nil {
			for _, c := range columns {
				if _, ok := cols[c]; !ok {
					return fmt.Errorf("the source's table %s has a column %q that this PostgreSQL schema lacks", table, c)
				}
			}
			names = columns
		}
		read++
		row := make([]any, len(values))
		for i, v := range values {
			var err error
			if row[i], err = convert(v, cols[names[i]].dataType); err != nil {
				return fmt.Errorf("table %s, row %d (%s = %s), column %s: %w", table, read, names[0], shortValue(values[0]), names[i], err)
			}
		}
		batch = append(batch, row)
		if len(batch) >= importBatch {
			return flush()
		}
		return nil
	})
	if err != nil {
		return sent, err
	}
	return sent, flush()
}

// shortValue shows a row's first value in a message: text quoted, valid
// UTF-8 and cut to 40 characters.
func shortValue(v any) string {
	switch x := v.(type) {
	case string:
		return shortText(x)
	case []byte:
		return shortText(string(x))
	}
	return fmt.Sprint(v)
}

func shortText(s string) string {
	r := []rune(strings.ToValidUTF8(s, "\uFFFD"))
	if len(r) > 40 {
		return strconv.Quote(string(r[:40])) + "…"
	}
	return strconv.Quote(string(r))
}

// convert turns a source value into one for a column of this PostgreSQL
// type.
func convert(v any, dataType string) (any, error) {
	if v == nil {
		return nil, nil
	}
	switch dataType {
	case "bigint", "integer", "smallint":
		switch x := v.(type) {
		case int64:
			return x, nil
		case bool:
			if x {
				return int64(1), nil
			}
			return int64(0), nil
		case string:
			// An instant: nanoseconds since the Unix epoch.
			t, err := time.Parse(time.RFC3339Nano, x)
			if err != nil {
				return nil, fmt.Errorf("%q is neither a number nor an RFC 3339 time", x)
			}
			return t.UnixNano(), nil
		}
	case "boolean":
		switch x := v.(type) {
		case bool:
			return x, nil
		case int64:
			return x != 0, nil
		}
	case "double precision", "real", "numeric":
		switch x := v.(type) {
		case float64:
			return x, nil
		case int64:
			return float64(x), nil
		}
	case "text", "character varying":
		var text string
		switch x := v.(type) {
		case string:
			text = x
		case []byte:
			text = string(x)
		default:
			return nil, fmt.Errorf("a %T value (%v) does not fit a %s column", v, v, dataType)
		}
		if !utf8.ValidString(text) || strings.ContainsRune(text, 0) {
			return nil, fmt.Errorf("the text %s is not valid UTF-8 or holds a NUL byte, which PostgreSQL refuses: correct it in the SQLite file (the sqlite3 shell can), then run migrate-db again", shortText(text))
		}
		return text, nil
	case "bytea":
		switch x := v.(type) {
		case []byte:
			return x, nil
		case string:
			return []byte(x), nil
		}
	default:
		return nil, fmt.Errorf("migrate-db cannot fill a column of type %s", dataType)
	}
	return nil, fmt.Errorf("a %T value (%v) does not fit a %s column", v, v, dataType)
}

// resetIdentities moves each identity column's counter past the copied
// ids, so that the next insert does not collide with them.
func resetIdentities(ctx context.Context, tx pgx.Tx, table string, cols map[string]column) error {
	for _, c := range cols {
		if !c.identity {
			continue
		}
		if _, err := tx.Exec(ctx, `SELECT setval(pg_get_serial_sequence($1, $2), max(`+ident(c.name)+`))
			FROM `+ident(table)+` HAVING max(`+ident(c.name)+`) IS NOT NULL`, ident(table), c.name); err != nil {
			return fmt.Errorf("move the id counter of %s.%s: %w", table, c.name, err)
		}
	}
	return nil
}

// ident quotes a table or column name.
func ident(name string) string { return pgx.Identifier{name}.Sanitize() }
