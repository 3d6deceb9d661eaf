package main

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestNoImportRunsBackUp: in the module as it is, every import between rooms runs down a floor (no circle of
// rooms), and the rooms under the conformance wing — bindings/, core/, service/, store/ — import nothing of
// conformance/.
func TestNoImportRunsBackUp(t *testing.T) {
	cmd := exec.Command("go", "list", "-deps", "-json", "./...")
	cmd.Dir = "../.."
	raw, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	rooms, err := readRooms(raw)
	if err != nil {
		t.Fatal(err)
	}
	layer(rooms)
	for _, r := range rooms {
		for to := range r.imports {
			if rooms[to].floor >= r.floor {
				t.Errorf("%s (floor %d) imports %s (floor %d): an import runs back up", r.name, r.floor, to, rooms[to].floor)
			}
		}
	}
	for _, below := range []string{"bindings/", "core/", "service/", "store/"} {
		if r, ok := rooms[below]; ok && r.imports["conformance/"] > 0 {
			t.Errorf("%s imports conformance/ (%d imports): the conformance wing stands above it", below, r.imports["conformance/"])
		}
	}
	if rooms["conformance/"] == nil || rooms["bindings/"] == nil || rooms["conformance/"].floor <= rooms["bindings/"].floor {
		t.Errorf("conformance/ does not stand above bindings/")
	}
}

// TestLayer: a room stands above what it imports; a circle is cut at one import, which then runs back up.
func TestLayer(t *testing.T) {
	mk := func(name string, lines int, imports ...string) *room {
		r := &room{name: name, total: lines, imports: map[string]int{}}
		for _, i := range imports {
			r.imports[i]++
		}
		return r
	}
	for _, tc := range []struct {
		name  string
		rooms []*room
		want  []string // floor by floor, ground first, rooms comma-joined
		up    int
	}{
		{"a line", []*room{mk("a", 1, "b"), mk("b", 1, "c"), mk("c", 1)}, []string{"c", "b", "a"}, 0},
		{"two above one", []*room{mk("a", 1, "c"), mk("b", 1, "c"), mk("c", 1)}, []string{"c", "a,b"}, 0},
		{"a circle", []*room{mk("a", 10, "b"), mk("b", 1, "a")}, []string{"b", "a"}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rooms := map[string]*room{}
			for _, r := range tc.rooms {
				rooms[r.name] = r
			}
			var got []string
			for _, f := range layer(rooms) {
				got = append(got, strings.Join(f, ","))
			}
			if !slices.Equal(got, tc.want) {
				t.Fatalf("floors %v, want %v", got, tc.want)
			}
			up := 0
			for _, r := range rooms {
				for to := range r.imports {
					if rooms[to].floor >= r.floor {
						up++
					}
				}
			}
			if up != tc.up {
				t.Fatalf("%d imports run back up, want %d", up, tc.up)
			}
		})
	}
}
