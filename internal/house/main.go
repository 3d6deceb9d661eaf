// Command house draws the module's packages as a house: each room is a top-level directory (cmd/, conformance/,
// bindings/, core/, …) holding its packages, a room stands on a floor above every room it imports, a box's width
// is its lines of non-test Go, and an arrow is an import between rooms — orange when it runs back up a floor,
// which a house whose rooms explain themselves has none of. It reads `go list -deps -json ./...` in -dir, so the
// same program draws any commit of the module (check one out with git worktree), and writes an SVG to -o and a
// summary (floors, rooms, arrows, arrows up) to standard output.
//
//	go run ./internal/house -dir . -o docs/house-after.svg
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"html"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// pkg is one package of the module as go list describes it.
type pkg struct {
	ImportPath string
	Dir        string
	GoFiles    []string
	Imports    []string
	Module     *struct{ Path string }
}

// room is one top-level directory's packages.
type room struct {
	name    string
	prefix  string         // the import path of the room's directory
	pkgs    []string       // import paths, sorted
	lines   map[string]int // by import path
	total   int
	imports map[string]int // room → how many package imports
	floor   int
}

func main() {
	dir := flag.String("dir", ".", "the module's directory")
	out := flag.String("o", "house.svg", "the SVG to write")
	title := flag.String("title", "", "the picture's title (default: the module's commit)")
	flag.Parse()
	if err := run(*dir, *out, *title, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "house:", err)
		os.Exit(1)
	}
}

func run(dir, out, title string, w io.Writer) error {
	cmd := exec.Command("go", "list", "-deps", "-json", "./...")
	cmd.Dir = dir
	cmd.Stderr = os.Stderr
	raw, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("go list in %s: %w", dir, err)
	}
	if title == "" {
		rev, _ := exec.Command("git", "-C", dir, "rev-parse", "--short", "HEAD").Output()
		title = "commit " + strings.TrimSpace(string(rev))
	}
	rooms, err := readRooms(raw)
	if err != nil {
		return err
	}
	floors := layer(rooms)
	up := 0
	arrows := 0
	for _, r := range rooms {
		for to := range r.imports {
			arrows++
			if rooms[to].floor >= r.floor {
				up++
			}
		}
	}
	total := 0
	for _, r := range rooms {
		total += r.total
	}
	fmt.Fprintf(w, "%s: %d lines of non-test Go in %d rooms on %d floors; %d arrows between rooms, %d running back up\n",
		title, total, len(rooms), len(floors), arrows, up)
	for i := len(floors) - 1; i >= 0; i-- {
		var names []string
		for _, n := range floors[i] {
			names = append(names, fmt.Sprintf("%s (%d)", n, rooms[n].total))
		}
		fmt.Fprintf(w, "  floor %d: %s\n", i, strings.Join(names, ", "))
	}
	svg := draw(rooms, floors, fmt.Sprintf("%s — %d lines, %d rooms on %d floors, %d arrows, %d running back up", title, total, len(rooms), len(floors), arrows, up))
	return os.WriteFile(out, svg, 0o644)
}

// readRooms groups the module's packages by top-level directory, counting lines and imports between rooms.
func readRooms(raw []byte) (map[string]*room, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	var all []pkg
	module := ""
	for dec.More() {
		var p pkg
		if err := dec.Decode(&p); err != nil {
			return nil, err
		}
		if p.Module != nil && !strings.Contains(p.ImportPath, ".test") {
			all = append(all, p)
		}
	}
	// The module is the one holding the packages ./... names: the last package listed is one of them.
	if len(all) == 0 {
		return nil, fmt.Errorf("no packages")
	}
	module = all[len(all)-1].Module.Path
	roomOf := func(path string) string {
		rest := strings.TrimPrefix(strings.TrimPrefix(path, module), "/")
		if rest == "" {
			return "(root)"
		}
		name, _, _ := strings.Cut(rest, "/")
		return name + "/"
	}
	rooms := map[string]*room{}
	for _, p := range all {
		if p.Module.Path != module {
			continue
		}
		name := roomOf(p.ImportPath)
		r := rooms[name]
		if r == nil {
			r = &room{name: name, prefix: module + "/" + strings.TrimSuffix(name, "/"), lines: map[string]int{}, imports: map[string]int{}}
			rooms[name] = r
		}
		n := 0
		for _, f := range p.GoFiles {
			n += countLines(filepath.Join(p.Dir, f))
		}
		r.pkgs = append(r.pkgs, p.ImportPath)
		r.lines[p.ImportPath] = n
		r.total += n
		for _, imp := range p.Imports {
			if imp == module || strings.HasPrefix(imp, module+"/") {
				if to := roomOf(imp); to != name {
					r.imports[to]++
				}
			}
		}
	}
	for _, r := range rooms {
		slices.Sort(r.pkgs)
	}
	return rooms, nil
}

func countLines(path string) int {
	f, err := os.Open(path)
	if err != nil {
		return 0
	}
	defer f.Close()
	n := 0
	s := bufio.NewScanner(f)
	s.Buffer(make([]byte, 1<<20), 1<<20)
	for s.Scan() {
		n++
	}
	return n
}

// layer puts each room on the floor above the highest room it imports, an import that closes a circle of rooms
// left out of the count (it is then an arrow running back up); floor 0 is the ground. Rooms on a floor are sorted
// by name.
func layer(rooms map[string]*room) [][]string {
	names := make([]string, 0, len(rooms))
	for n := range rooms {
		names = append(names, n)
	}
	slices.Sort(names)
	// Back edges: imports that close a circle, found by a depth-first walk in name order, heaviest rooms first
	// so the circle is cut at its lightest import.
	state := map[string]int{} // 0 unseen, 1 on the path, 2 done
	back := map[[2]string]bool{}
	var visit func(n string)
	visit = func(n string) {
		state[n] = 1
		tos := make([]string, 0, len(rooms[n].imports))
		for to := range rooms[n].imports {
			tos = append(tos, to)
		}
		slices.SortFunc(tos, func(a, b string) int { return rooms[n].imports[b] - rooms[n].imports[a] })
		for _, to := range tos {
			switch state[to] {
			case 0:
				visit(to)
			case 1:
				back[[2]string{n, to}] = true
			}
		}
		state[n] = 2
	}
	order := slices.Clone(names)
	slices.SortStableFunc(order, func(a, b string) int { return rooms[b].total - rooms[a].total })
	for _, n := range order {
		if state[n] == 0 {
			visit(n)
		}
	}
	floor := map[string]int{}
	var height func(n string) int
	height = func(n string) int {
		if f, ok := floor[n]; ok {
			return f
		}
		floor[n] = 0
		h := 0
		for to := range rooms[n].imports {
			if !back[[2]string{n, to}] {
				h = max(h, height(to)+1)
			}
		}
		floor[n] = h
		return h
	}
	top := 0
	for _, n := range names {
		rooms[n].floor = height(n)
		top = max(top, rooms[n].floor)
	}
	floors := make([][]string, top+1)
	for _, n := range names {
		floors[rooms[n].floor] = append(floors[rooms[n].floor], n)
	}
	return floors
}

// draw writes the house as SVG: the top floor first, each room a box as wide as its lines (with a floor's rooms
// side by side), its packages boxes inside it, and the imports between rooms as arrows.
func draw(rooms map[string]*room, floors [][]string, title string) []byte {
	const width, rowH, gap, margin = 1400.0, 80.0, 55.0, 20.0
	widest := 0
	for _, f := range floors {
		t := 0
		for _, n := range f {
			t += rooms[n].total
		}
		widest = max(widest, t)
	}
	scale := (width - 2*margin - 200) / float64(max(widest, 1))
	type box struct{ x, y, w, h float64 }
	boxes := map[string]box{}
	height := margin + 40 + float64(len(floors))*(rowH+gap) + 20
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" font-family="sans-serif" font-size="11">`+"\n", width, height)
	fmt.Fprintf(&b, `<rect width="100%%" height="100%%" fill="white"/><text x="%.0f" y="%.0f" font-size="16" font-weight="bold">%s</text>`+"\n", margin, margin+12, html.EscapeString(title))
	for i := len(floors) - 1; i >= 0; i-- {
		row := float64(len(floors) - 1 - i)
		y := margin + 40 + row*(rowH+gap)
		x := margin
		fmt.Fprintf(&b, `<text x="%.0f" y="%.0f" fill="#888">floor %d</text>`+"\n", width-margin-50, y+rowH/2, i)
		for _, n := range floors[i] {
			r := rooms[n]
			w := max(float64(r.total)*scale, 70)
			boxes[n] = box{x, y, w, rowH}
			fmt.Fprintf(&b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s" stroke="#333"/>`+"\n", x, y, w, rowH, colour(n))
			fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" font-weight="bold">%s %d</text>`+"\n", x+4, y+13, html.EscapeString(n), r.total)
			px := x + 3
			for _, p := range r.pkgs {
				pw := max(float64(r.lines[p])/float64(max(r.total, 1))*(w-6), 1)
				short := strings.TrimPrefix(strings.TrimPrefix(p, r.prefix), "/")
				if n == "(root)" || short == "" {
					short = "."
				}
				fmt.Fprintf(&b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="white" fill-opacity="0.5" stroke="#666" stroke-width="0.5"><title>%s %d lines</title></rect>`+"\n",
					px, y+20, pw, rowH-24, html.EscapeString(p), r.lines[p])
				if pw > 40 {
					fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" font-size="9">%s</text><text x="%.1f" y="%.1f" font-size="9" fill="#555">%d</text>`+"\n",
						px+2, y+32, html.EscapeString(clip(short, int(pw/5.5))), px+2, y+43, r.lines[p])
				}
				px += pw
			}
			x += w + 14
		}
	}
	names := make([]string, 0, len(rooms))
	for n := range rooms {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		from := boxes[n]
		tos := make([]string, 0)
		for to := range rooms[n].imports {
			tos = append(tos, to)
		}
		slices.Sort(tos)
		for k, to := range tos {
			dst := boxes[to]
			x1 := from.x + from.w*float64(k+1)/float64(len(tos)+1)
			x2 := dst.x + dst.w/2
			up := rooms[to].floor >= rooms[n].floor
			stroke, sw := "#777", 1.0
			y1, y2 := from.y+from.h, dst.y
			if up {
				stroke, sw = "#e07b00", 2.5
				y1, y2 = from.y, dst.y+dst.h
			}
			fmt.Fprintf(&b, `<path d="M%.1f %.1f C%.1f %.1f %.1f %.1f %.1f %.1f" fill="none" stroke="%s" stroke-width="%.1f" marker-end="url(#a)"><title>%s imports %s (%d)</title></path>`+"\n",
				x1, y1, x1, (y1+y2)/2, x2, (y1+y2)/2, x2, y2, stroke, sw, html.EscapeString(n), html.EscapeString(to), rooms[n].imports[to])
		}
	}
	fmt.Fprintf(&b, `<text x="%.0f" y="%.0f" fill="#555">a room is a top-level directory, its width its lines of non-test Go (a package a box inside it); a room stands above every room it imports; grey arrow: an import down; orange: an import running back up a floor (a circle of rooms). Drawn by internal/house from go list -deps -json ./...</text>`+"\n", margin, height-14)
	b.WriteString(`<defs><marker id="a" markerWidth="8" markerHeight="8" refX="6" refY="3" orient="auto"><path d="M0,0 L6,3 L0,6 z" fill="#555"/></marker></defs>` + "\n</svg>\n")
	return []byte(b.String())
}

func clip(s string, n int) string {
	if len(s) <= n || n < 2 {
		return s
	}
	return s[:n-1] + "…"
}

// colour is a room's fill, the same room the same colour in every picture.
func colour(name string) string {
	palette := map[string]string{"cmd/": "#b5e0b0", "conformance/": "#b3cbe3", "bindings/": "#e8dcc0", "internal/": "#e8c5e0",
		"store/": "#b8e3dc", "service/": "#d5ecc8", "core/": "#eebcc5", "gen/": "#cfc3ea", "wire/": "#c9d2ee", "metrics/": "#e6cdef",
		"transports/": "#f2c9b8", "spec/": "#eeeeee", "examples/": "#f6efc0", "scripts/": "#d8efd8"}
	if c, ok := palette[name]; ok {
		return c
	}
	return "#e4e4e4"
}
