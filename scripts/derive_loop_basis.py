#!/usr/bin/env python3
"""Derives the 12 quartic box-spline functions of a regular Loop triangle from Loop's own rules.

On a regular triangle lattice (directions (1, 0), (0, 1), (-1, 1) and their negatives) Loop
subdivision is the quartic box spline's refinement, so the limit of a control point's unit
impulse, restricted to the triangle (0, 0), (1, 0), (0, 1), is a quartic in (u, v). Its values
at the 15 points (i/4, j/4) come from two rounds of Loop's regular rules (vertex 5/8 and 1/16 a
neighbour, edge 3/8 an end and 1/8 an opposite) and the limit mask (1/2 and 1/12); they fix the
quartic's Bernstein coefficients, which the 45 points of a third round check. Exact rationals.

Then the boundary: on the half-lattice v >= 0 under Loop's boundary rules (a boundary vertex
3/4 and 1/8 its two boundary neighbours, a boundary edge's point its midpoint, the limit 2/3 and
1/6), a triangle with a side on the boundary, one with a corner on it and one beside it are the
box spline of their nets with each point beyond the boundary reflected, a + b - c across the
boundary edge a-b of the triangle a-b-c inside: checked at two rounds' 15 points for every
control point's impulse.

Prints the coefficients times 24 (integers) in the control point order of
schemes/loop/box_spline.hpp. Run: python3 scripts/derive_loop_basis.py
"""
from fractions import Fraction as Q
from math import factorial

DIRECTIONS = [(1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1)]
# The 12 control points in schemes/loop/box_spline.hpp's order: the corners 0, 1, 2, then per
# side a (corner a to a + 1) the point opposite it across the side, the point across the edge
# from corner a to that one and the point across the edge from that one to corner a + 1.
CONTROLS = [(0, 0), (1, 0), (0, 1), (1, -1), (0, -1), (2, -1), (1, 1), (2, 0), (0, 2), (-1, 1), (-1, 2), (-1, 0)]
RADIUS = 8


def refine(values):
    """One round of Loop's regular rules: level-k lattice (i, j) -> level k + 1 (2i, 2j) etc."""
    out = {}
    span = range(-2 * RADIUS, 2 * RADIUS + 1)
    for i in span:
        for j in span:
            if i % 2 == 0 and j % 2 == 0:
                p = (i // 2, j // 2)
                ring = sum(values.get((p[0] + di, p[1] + dj), 0) for di, dj in DIRECTIONS)
                out[(i, j)] = Q(5, 8) * values.get(p, 0) + Q(1, 16) * ring
            else:  # the midpoint of the parent edge from a to b
                a = (i // 2, j // 2) if i % 2 == 0 or j % 2 == 0 else None
                if i % 2 and j % 2:  # direction (-1, 1) edge: ends (i-1)/2, (j+1)/2 and (i+1)/2, (j-1)/2
                    a, b = ((i + 1) // 2, (j - 1) // 2), ((i - 1) // 2, (j + 1) // 2)
                elif i % 2:
                    a, b = ((i - 1) // 2, j // 2), ((i + 1) // 2, j // 2)
                else:
                    a, b = (i // 2, (j - 1) // 2), (i // 2, (j + 1) // 2)
                d = (b[0] - a[0], b[1] - a[1])
                k = DIRECTIONS.index(d)
                o1 = (a[0] + DIRECTIONS[(k + 1) % 6][0], a[1] + DIRECTIONS[(k + 1) % 6][1])
                o2 = (a[0] + DIRECTIONS[(k + 5) % 6][0], a[1] + DIRECTIONS[(k + 5) % 6][1])
                out[(i, j)] = Q(3, 8) * (values.get(a, 0) + values.get(b, 0)) + Q(1, 8) * (values.get(o1, 0) + values.get(o2, 0))
    return out


def limits(values, level):
    """The limit at the level's lattice points inside the triangle: (i, j) at (i, j) / 2^level."""
    n = 1 << level
    return {(i, j): Q(1, 2) * values.get((i, j), 0) + Q(1, 12) * sum(values.get((i + di, j + dj), 0) for di, dj in DIRECTIONS)
            for i in range(n + 1) for j in range(n + 1 - i)}


def bernstein(i, j, u, v):
    """Quartic Bernstein polynomial of corner exponents (4 - i - j, i, j) at (u, v)."""
    k = 4 - i - j
    w = 1 - u - v
    return Q(factorial(4), factorial(i) * factorial(j) * factorial(k)) * w**k * u**i * v**j


def solve(matrix, rhs):
    n = len(matrix)
    a = [row[:] + [r] for row, r in zip(matrix, rhs)]
    for c in range(n):
        p = next(r for r in range(c, n) if a[r][c] != 0)
        a[c], a[p] = a[p], a[c]
        for r in range(n):
            if r != c and a[r][c] != 0:
                f = a[r][c] / a[c][c]
                a[r] = [x - f * y for x, y in zip(a[r], a[c])]
    return [a[r][n] / a[r][r] for r in range(n)]


TERMS = [(i, j) for j in range(5) for i in range(5 - j)]  # Bernstein (u power, v power), v-major


def refine_half(values):
    """One round of Loop's rules on the half-lattice v >= 0, the line v = 0 its boundary."""
    out = {}
    for i in range(-2 * RADIUS, 2 * RADIUS + 1):
        for j in range(0, 2 * RADIUS + 1):
            if i % 2 == 0 and j % 2 == 0:
                p = (i // 2, j // 2)
                if p[1] == 0:
                    boundary = values.get((p[0] - 1, 0), 0) + values.get((p[0] + 1, 0), 0)
                    out[(i, j)] = Q(3, 4) * values.get(p, 0) + Q(1, 8) * boundary
                else:
                    ring = sum(values.get((p[0] + di, p[1] + dj), 0) for di, dj in DIRECTIONS)
                    out[(i, j)] = Q(5, 8) * values.get(p, 0) + Q(1, 16) * ring
                continue
            if i % 2 and j % 2:
                a, b = ((i + 1) // 2, (j - 1) // 2), ((i - 1) // 2, (j + 1) // 2)
            elif i % 2:
                a, b = ((i - 1) // 2, j // 2), ((i + 1) // 2, j // 2)
            else:
                a, b = (i // 2, (j - 1) // 2), (i // 2, (j + 1) // 2)
            if a[1] == 0 and b[1] == 0:
                out[(i, j)] = Q(1, 2) * (values.get(a, 0) + values.get(b, 0))
                continue
            k = DIRECTIONS.index((b[0] - a[0], b[1] - a[1]))
            o1 = (a[0] + DIRECTIONS[(k + 1) % 6][0], a[1] + DIRECTIONS[(k + 1) % 6][1])
            o2 = (a[0] + DIRECTIONS[(k + 5) % 6][0], a[1] + DIRECTIONS[(k + 5) % 6][1])
            out[(i, j)] = Q(3, 8) * (values.get(a, 0) + values.get(b, 0)) + Q(1, 8) * (values.get(o1, 0) + values.get(o2, 0))
    return out


def limit_half(values, p):
    if p[1] == 0:
        return Q(2, 3) * values.get(p, 0) + Q(1, 6) * (values.get((p[0] - 1, 0), 0) + values.get((p[0] + 1, 0), 0))
    return Q(1, 2) * values.get(p, 0) + Q(1, 12) * sum(values.get((p[0] + di, p[1] + dj), 0) for di, dj in DIRECTIONS)


def check_boundary(table, origin, e1, e2):
    """The triangle origin, origin + e1, origin + e2 of the half-lattice against its box spline."""
    place = lambda c: (origin[0] + c[0] * e1[0] + c[1] * e2[0], origin[1] + c[0] * e1[1] + c[1] * e2[1])
    net = [place(c) for c in CONTROLS]

    def value(q, impulse):  # a point of the net: the impulse's value, or beyond v = 0 reflected
        if q[1] >= 0:
            return Q(1) if q == impulse else Q(0)
        return value((q[0] - 1, 0), impulse) + value((q[0], 0), impulse) - value((q[0] - 1, 1), impulse)

    for impulse in {p for p in net if p[1] >= 0}:
        values = refine_half(refine_half({impulse: Q(1)}))
        for i in range(5):
            for j in range(5 - i):
                u, v = Q(i, 4), Q(j, 4)
                p = (4 * origin[0] + i * e1[0] + j * e2[0], 4 * origin[1] + i * e1[1] + j * e2[1])
                spline = sum(Q(row[t], 24) * bernstein(a, b, u, v) * value(q, impulse)
                             for row, q in zip(table, net) for t, (a, b) in enumerate(TERMS))
                assert spline == limit_half(values, p), (origin, e1, e2, impulse, p)


def main():
    table = []
    for control in CONTROLS:
        values = {control: Q(1)}
        rounds = [values]
        for _ in range(3):
            rounds.append(refine(rounds[-1]))
        at2, at3 = limits(rounds[2], 2), limits(rounds[3], 3)
        points = sorted(at2)
        matrix = [[bernstein(i, j, Q(p[0], 4), Q(p[1], 4)) for (i, j) in TERMS] for p in points]
        coefficients = solve(matrix, [at2[p] for p in points])
        for p, value in at3.items():  # the quartic holds at the next level's 45 points
            assert sum(c * bernstein(i, j, Q(p[0], 8), Q(p[1], 8)) for c, (i, j) in zip(coefficients, TERMS)) == value
        scaled = [c * 24 for c in coefficients]
        assert all(c.denominator == 1 for c in scaled)
        table.append([int(c) for c in scaled])
    for i in range(15):  # partition of unity: each Bernstein coefficient's column sums to 24
        assert sum(row[i] for row in table) == 24
    check_boundary(table, (0, 0), (1, 0), (0, 1))   # a side on the boundary
    check_boundary(table, (0, 0), (0, 1), (-1, 1))  # a corner on it
    check_boundary(table, (0, 1), (1, 0), (0, 1))   # beside it
    print("Bernstein terms (u power, v power):", TERMS)
    for control, row in zip(CONTROLS, table):
        print(f"  {{{', '.join(f'{c:2d}' for c in row)}}},  // {control}")


if __name__ == "__main__":
    main()
