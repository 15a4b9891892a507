// An all-hexahedral cylinder for the solids benchmark (bench/RESULTS.md, "Catmull-Clark solids"):
// an O-grid disc (a square inside, four patches around it) extruded in layers. Where the
// square's corners meet three quads the extruded edges have three faces: extraordinary edges,
// so the mesh has layered cells as well as regular ones. 2700 quads x 48 layers = 129,600
// hexahedra. Made with `gmsh -3 -format mesh cylinder_hex.geo -o cylinder_hex.mesh` (Debian
// gmsh 4.11).
SetFactory("Built-in");
n = 31;     // points along each side of the square and each quarter circle
rings = 16; // points from the square out to the circle
layers = 48;
a = 0.35;   // half the square's side
Point(1) = {0, 0, 0};
For i In {0:3}
  t = Pi / 4 + i * Pi / 2;
  Point(2 + i) = {a * Sqrt(2) * Cos(t), a * Sqrt(2) * Sin(t), 0};
  Point(6 + i) = {Cos(t), Sin(t), 0};
EndFor
For i In {0:3}
  Line(1 + i) = {2 + i, 2 + (i + 1) % 4};        // the square
  Circle(5 + i) = {6 + i, 1, 6 + (i + 1) % 4};   // the circle
  Line(9 + i) = {2 + i, 6 + i};                  // square corner out to the circle
EndFor
Curve Loop(1) = {1, 2, 3, 4};
Plane Surface(1) = {1};
For i In {0:3}
  Curve Loop(2 + i) = {9 + i, 5 + i, -(9 + (i + 1) % 4), -(1 + i)};
  Plane Surface(2 + i) = {2 + i};
EndFor
Transfinite Curve {1:8} = n;
Transfinite Curve {9:12} = rings;
Transfinite Surface {1:5};
Recombine Surface {1:5};
Extrude {0, 0, 2} { Surface{1:5}; Layers{layers}; Recombine; }
