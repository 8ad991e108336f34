/**
 * How much each column's underside (its lowest subject row, -1 for none; y grows downwards) casts a contact
 * shadow: (1 - h / reach)^2, by its height h above the ground line, 0 from `reach` up.
 *
 * The ground line is the subject's lowest outline seen from below (the lower convex hull of the undersides), kept
 * where it tilts at most `tilt`: a motorcycle's wheels and stand, a chair's legs, a sole all lie on it, even when
 * the photo's ground is not level, while a wheel's flank curving up, an engine between the wheels or a fender
 * hanging in the air lie above it. Past the level part the line goes on straight; with no part level enough (a
 * point at the bottom), it is level through the lowest point.
 */
export function groundWeights(underside: Int32Array, reach: number, tilt: number): Float64Array {
  const n = underside.length;
  // Monotone chain: a point stays on the hull when it is below the line joining its neighbours on it.
  const hull: number[] = [];
  for (let x = 0; x < n; x++) {
    const y = underside[x]!;
    if (y < 0) continue;
    while (hull.length >= 2) {
      const a = hull[hull.length - 2]!;
      const b = hull[hull.length - 1]!;
      const ya = underside[a]!;
      if ((underside[b]! - ya) * (x - a) > (y - ya) * (b - a)) break;
      hull.pop();
    }
    hull.push(x);
  }
  const weights = new Float64Array(n);
  if (hull.length === 0) return weights;
  const slope = (i: number) => (underside[hull[i + 1]!]! - underside[hull[i]!]!) / (hull[i + 1]! - hull[i]!);
  // The hull's slopes fall from left to right, so its level edges are one run, first..last.
  let first = -1;
  let last = -1;
  for (let i = 0; i + 1 < hull.length; i++)
    if (Math.abs(slope(i)) <= tilt) {
      if (first < 0) first = i;
      last = i;
    }
  let ground: (x: number) => number;
  if (first < 0) {
    let lowest = 0;
    for (const x of hull) lowest = Math.max(lowest, underside[x]!);
    ground = () => lowest;
  } else {
    const line = (i: number, x: number) => underside[hull[i]!]! + slope(i) * (x - hull[i]!);
    ground = (x) => {
      if (x <= hull[first]!) return line(first, x);
      if (x >= hull[last + 1]!) return line(last, x);
      let i = first;
      while (hull[i + 1]! < x) i++;
      return line(i, x);
    };
  }
  for (let x = 0; x < n; x++) {
    const y = underside[x]!;
    if (y < 0) continue;
    const h = Math.max(0, ground(x) - y);
    weights[x] = h >= reach ? 0 : (1 - h / reach) ** 2;
  }
  return weights;
}
