package storage

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// catalogue is a schema as both engines can describe it: each entry one
// line, such as "column attempts.kind NOT NULL" or
// "index attempts (learner_id, created_at)".
type catalogue map[string]bool

// engineOnly lists what one engine has by design and the other lacks.
// Keep it short, and say why.
var engineOnly = map[string]string{
	// SQLite's own: the sequence counters of AUTOINCREMENT tables.
	"table sqlite_sequence": "sqlite",
}

// testCatalogue migrates an empty database of each engine and compares
// their tables, columns (with NOT NULL), primary keys, indexes (with
// uniqueness and columns; partial ones marked) and foreign keys (with ON
// DELETE): any entry one has and the other lacks fails the test.
func testCatalogue(t *testing.T, open func(t *testing.T) *DB) {
	ctx := context.Background()
	lite, err := OpenSQLite(ctx, filepath.Join(t.TempDir(), "learn.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer lite.Close()
	sq, err := sqliteCatalogue(ctx, lite)
	if err != nil {
		t.Fatalf("read the SQLite catalogue: %v", err)
	}
	pg, err := postgresCatalogue(ctx, open(t))
	if err != nil {
		t.Fatalf("read the PostgreSQL catalogue: %v", err)
	}
	if len(sq) < 50 || len(pg) < 50 {
		t.Fatalf("the catalogues hold %d and %d entries: the reads found next to nothing", len(sq), len(pg))
	}
	for _, d := range []struct {
		name     string
		has, not catalogue
	}{{"sqlite", sq, pg}, {"postgres", pg, sq}} {
		var missing []string
		for e := range d.has {
			if !d.not[e] && engineOnly[e] != d.name {
				missing = append(missing, e)
			}
		}
		slices.Sort(missing)
		if len(missing) > 0 {
			t.Errorf("only %s has:\n\t%s", d.name, strings.Join(missing, "\n\t"))
		}
	}
}

// strings reads one column of text rows.
func (s *DB) strings(ctx context.Context, query string, args ...any) ([]string, error) {
	var out []string
	return out, s.each(ctx, "catalogue", func(sc scanner) error {
		var v string
		err := sc.Scan(&v)
		out = append(out, v)
		return err
	}, query, args...)
}

func sqliteCatalogue(ctx context.Context, s *DB) (catalogue, error) {
	c := catalogue{}
	tables, err := s.strings(ctx, "SELECT name FROM sqlite_master WHERE type = 'table' AND name <> 'schema_migrations' ORDER BY name")
	if err != nil {
		return nil, err
	}
	for _, tb := range tables {
		c["table "+tb] = true
		var pk []string
		err := s.each(ctx, "columns", func(sc scanner) error {
			var name string
			var notNull, pkPos int
			if err := sc.Scan(&name, &notNull, &pkPos); err != nil {
				return err
			}
			// A primary key column is NOT NULL in PostgreSQL whatever it says.
			c[fmt.Sprintf("column %s.%s%s", tb, name, map[bool]string{true: " NOT NULL"}[notNull == 1 || pkPos > 0])] = true
			if pkPos > 0 {
				pk = append(pk, name)
			}
			return nil
		}, `SELECT name, "notnull", pk FROM pragma_table_info(?) ORDER BY pk`, tb)
		if err != nil {
			return nil, err
		}
		if len(pk) > 0 {
			c[fmt.Sprintf("primary key %s (%s)", tb, strings.Join(pk, ", "))] = true
		}
		type index struct {
			name           string
			unique, origin string
			partial        int
		}
		var idx []index
		err = s.each(ctx, "indexes", func(sc scanner) error {
			var i index
			err := sc.Scan(&i.name, &i.unique, &i.origin, &i.partial)
			idx = append(idx, i)
			return err
		}, `SELECT name, CASE WHEN "unique" THEN 'unique ' ELSE '' END, origin, partial FROM pragma_index_list(?)`, tb)
		if err != nil {
			return nil, err
		}
		for _, i := range idx {
			if i.origin == "pk" {
				continue
			}
			cols, err := s.strings(ctx, "SELECT name FROM pragma_index_info(?) ORDER BY seqno", i.name)
			if err != nil {
				return nil, err
			}
			c[fmt.Sprintf("%sindex %s (%s)%s", i.unique, tb, strings.Join(cols, ", "), map[bool]string{true: " partial"}[i.partial == 1])] = true
		}
		fks := map[int][]string{}
		err = s.each(ctx, "foreign keys", func(sc scanner) error {
			var id int
			var ref, from, to, onDelete string
			if err := sc.Scan(&id, &ref, &from, &to, &onDelete); err != nil {
				return err
			}
			fks[id] = append(fks[id], ref, from, to, onDelete)
			return nil
		}, `SELECT id, "table", "from", coalesce("to", ''), on_delete FROM pragma_foreign_key_list(?) ORDER BY id, seq`, tb)
		if err != nil {
			return nil, err
		}
		for _, fk := range fks {
			// One-column keys only in this schema; a longer one would list
			// ref, from, to, on delete again.
			if len(fk) != 4 {
				return nil, fmt.Errorf("table %s: a foreign key of %d columns", tb, len(fk)/4)
			}
			c[fmt.Sprintf("foreign key %s.%s -> %s.%s ON DELETE %s", tb, fk[1], fk[0], fk[2], fk[3])] = true
		}
	}
	return c, nil
}

func postgresCatalogue(ctx context.Context, s *DB) (catalogue, error) {
	c := catalogue{}
	rows := []struct{ what, query string }{
		{"tables", `SELECT 'table ' || table_name FROM information_schema.tables
			WHERE table_schema = current_schema() AND table_name <> 'schema_migrations'`},
		{"columns", `SELECT 'column ' || table_name || '.' || column_name || CASE WHEN is_nullable = 'NO' THEN ' NOT NULL' ELSE '' END
			FROM information_schema.columns WHERE table_schema = current_schema() AND table_name <> 'schema_migrations'`},
		{"primary keys", `SELECT 'primary key ' || t.relname || ' (' || string_agg(a.attname, ', ' ORDER BY k.ord) || ')'
			FROM pg_constraint p JOIN pg_class t ON t.oid = p.conrelid
			CROSS JOIN LATERAL unnest(p.conkey) WITH ORDINALITY AS k(attnum, ord)
			JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum
			WHERE p.contype = 'p' AND p.connamespace = current_schema()::regnamespace AND t.relname <> 'schema_migrations'
			GROUP BY t.relname, p.oid`},
		{"indexes", `SELECT CASE WHEN i.indisunique THEN 'unique ' ELSE '' END || 'index ' || t.relname || ' ('
			|| string_agg(a.attname, ', ' ORDER BY k.ord) || ')' || CASE WHEN i.indpred IS NOT NULL THEN ' partial' ELSE '' END
			FROM pg_index i JOIN pg_class t ON t.oid = i.indrelid
			CROSS JOIN LATERAL unnest(i.indkey) WITH ORDINALITY AS k(attnum, ord)
			JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum
			WHERE NOT i.indisprimary AND t.relnamespace = current_schema()::regnamespace
			GROUP BY t.relname, i.indexrelid, i.indisunique, i.indpred IS NOT NULL`},
		{"foreign keys", `SELECT 'foreign key ' || t.relname || '.' || a.attname || ' -> ' || r.relname || '.' || ra.attname
			|| ' ON DELETE ' || CASE f.confdeltype WHEN 'c' THEN 'CASCADE' WHEN 'n' THEN 'SET NULL' WHEN 'r' THEN 'RESTRICT'
				WHEN 'd' THEN 'SET DEFAULT' ELSE 'NO ACTION' END
			FROM pg_constraint f JOIN pg_class t ON t.oid = f.conrelid JOIN pg_class r ON r.oid = f.confrelid
			JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = f.conkey[1]
			JOIN pg_attribute ra ON ra.attrelid = r.oid AND ra.attnum = f.confkey[1]
			WHERE f.contype = 'f' AND f.connamespace = current_schema()::regnamespace`},
	}
	for _, r := range rows {
		got, err := s.strings(ctx, r.query)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", r.what, err)
		}
		for _, e := range got {
			c[e] = true
		}
	}
	return c, nil
}
