//! Legal move generation for the chevron games: one engine, switched by [`Rules`]
//! (`pacru.chevron.movegen`).
//!
//! * Moving forwards only, ending facing the direction of travel {G4, S-R3, L4, R3}.
//! * Power of movement: own fields in the starting borderland, the chevron's own field
//!   included, at least 1 {A-R4, R5, D39}; always 1 in Lilacru/Shacru.
//! * Long moves in a straight line over markers of any colour, never over a chevron
//!   {A-R5, R6, R7, D8}, except a connection jump {A-R8, R9}.
//! * Never onto a chevron or another player's colour {S-R5, L6, A-R9, R7, D41}; onto
//!   one's own colour is allowed and gains nothing (D6).
//! * The borderland twist on every crossing move {S-R4, A-R6, D3, D4, D42}, none for an
//!   Azacru chevron removed by its own connection or once the Azacru end is triggered (D5).
//! * Pacru: pincer {R11, D18, D19}, connection or crossing choice {R8, D13}, borderland
//!   change {R4, R6, D14, D15} or transformation {R10, D16} judged after a capture (D17),
//!   meeting {R12, D21-D23, D46, D47}, the supply cap {R16b, D29} and reorientation
//!   {R14, D25, D26}.

use crate::geometry::{
    bits, code_field, count_few, field_count, forward, halves, land_of, BETWEEN, FORWARD_MASK,
    FULL, LAND_MASK, LAND_OF, NEIGHBOUR, RAY, RAY_LEN,
};
pub(crate) use crate::steps::{Step, Steps};
use crate::types::{ChevronList, MeetingRule, Position, Rules};

/// Pacru marker supply per player, indexed by the number of players {R1}.
pub const SUPPLY: [i32; 5] = [0, 0, 42, 28, 24];

/// One choice of a step: twist, connection, crossing marker field (-1: none), meeting
/// fields (0: no meeting; else one move per field).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Opt {
    pub twist: i8,
    pub conn: bool,
    pub marker: i8,
    pub meet: u128,
}

impl Opt {
    const PLAIN: Opt = Opt {
        twist: 0,
        conn: false,
        marker: -1,
        meet: 0,
    };

    #[inline]
    pub fn size(&self) -> u64 {
        u64::from(self.meet.count_ones()).max(1)
    }
}

/// The bitboard of every marked field of the first `n` seats.
#[inline]
pub(crate) fn all_marked(markers: &[u128; 4], n: usize) -> u128 {
    markers[..n].iter().fold(0, |a, m| a | m)
}

/// Power of movement of a chevron on `field` of the player with fields `own`
/// {A-R4, R5, D39}: own fields in its borderland, at least 1; 1 in games without power.
#[inline]
pub fn power_of_movement(rules: &Rules, own: u128, field: u8) -> u32 {
    if !rules.power() {
        return 1;
    }
    count_few(own & LAND_OF[field as usize % 81]).max(1)
}

/// Walks the candidate steps of `seat` in list order, pincer attacks included (a pincer
/// needs two attackers of one victim {R11}: the caller keeps an attack only if its victim
/// is in the returned bitboard of victims attacked twice). `visit` returns false to stop.
///
/// {G4, A-R4, A-R5, R5, R6, R7, R9, R11, D8, D18, D19, D39, D41}: forwards only, as far
/// as the power of movement, over markers but not chevrons unless a connection jump from
/// an own field onto an own field, never onto another colour; the first chevron of a
/// forward ray within the power may be attacked. Without power of movement (Lilacru,
/// Shacru) a chevron moves one field {L4, S-R3}: onto each forward neighbour that is empty
/// and not another player's colour.
fn walk_steps(
    rules: &Rules,
    pos: &Position,
    seat: usize,
    mut visit: impl FnMut(Step) -> bool,
) -> u128 {
    let n = (pos.players as usize).min(4);
    let seat = seat % 4;
    let own = pos.markers[seat];
    let other = all_marked(&pos.markers, n) ^ own;
    let occupied = pos.occupied();
    let blocked = occupied | other;
    // The boards as two words each: a field's bit is then one word's shift, cheaper than a
    // 128-bit shift.
    let blocked2 = halves(blocked);
    if !rules.power() {
        for code in pos.chevrons[seat].iter() {
            if FORWARD_MASK[code as usize] & !blocked == 0 {
                continue;
            }
            let f = code_field(code);
            for d in forward((code & 7) as u8) {
                let Ok(t) = u8::try_from(NEIGHBOUR[f as usize][d as usize]) else {
                    continue; // off the board
                };
                if !has(&blocked2, t) {
                    let step = Step {
                        f,
                        t,
                        d,
                        k: 1,
                        ..Step::default()
                    };
                    if !visit(step) {
                        return 0;
                    }
                }
            }
        }
        return 0;
    }
    let own_occ = pos.chevrons[seat].fields();
    let pacru = rules.pacru();
    let (mut once, mut twice) = (0u128, 0u128);
    let (own2, occupied2) = (halves(own), halves(occupied));
    for code in pos.chevrons[seat].iter() {
        let f = code_field(code);
        let pom = count_few(own & LAND_OF[f as usize]).max(1);
        let from_own = has(&own2, f);
        for d in forward((code & 7) as u8) {
            let ray = &RAY[f as usize][d as usize];
            let len = u32::from(RAY_LEN[f as usize][d as usize]).min(pom) as usize;
            let mut jumped = false;
            for (k, &t) in (1u8..).zip(&ray[..len]) {
                let step = Step {
                    f,
                    t,
                    d,
                    k,
                    ..Step::default()
                };
                let keep_going = if !has(&blocked2, t) {
                    if !jumped {
                        visit(step)
                    } else {
                        // A jump (of a connection) ends only on an own field {A-R8, R9}.
                        !has(&own2, t)
                            || visit(Step {
                                jumped: true,
                                ..step
                            })
                    }
                } else if has(&occupied2, t) {
                    let mut go = true;
                    let bit = 1u128 << t;
                    if pacru && !jumped && own_occ & bit == 0 {
                        twice |= once & bit;
                        once |= bit;
                        go = visit(Step {
                            capture: true,
                            ..step
                        });
                    }
                    if !from_own {
                        if !go {
                            return twice;
                        }
                        break;
                    }
                    jumped = true;
                    go
                } else {
                    // Over another player's marker.
                    true
                };
                if !keep_going {
                    return twice;
                }
            }
        }
    }
    twice
}

/// Whether field `f` (below 128) is in the board `halves` made.
#[inline(always)]
fn has(board: &[u64; 2], f: u8) -> bool {
    board[usize::from(f >> 6) & 1] >> (f & 63) & 1 != 0
}

/// Every legal chevron step of `seat` (pincers included), before choices, appended to
/// `out` {G4, A-R4, A-R5, R5, R6, R7, R9, R11, D8, D18, D19, D39, D41}.
///
/// Order: chevrons ascending by field, directions (left, straight, right), distances
/// ascending; a pincer stands where its attacker's step of that direction and distance
/// would (a pincer needs two attackers of one victim {R11}).
pub(crate) fn raw_steps(rules: &Rules, pos: &Position, seat: usize, out: &mut Steps) {
    let start = out.as_slice().len();
    let mut attacks = false;
    let twice = walk_steps(rules, pos, seat, |s| {
        attacks |= s.capture;
        out.push(s);
        true
    });
    if attacks {
        let steps = out.as_mut_slice();
        let dropped = |s: &Step| s.capture && twice >> s.t & 1 == 0;
        // The steps before the first dropped attack stay where they are: moved from there on.
        let Some(first) = steps[start..].iter().position(dropped) else {
            return;
        };
        let mut i = start + first;
        for j in i + 1..steps.len() {
            let s = steps[j];
            if !dropped(&s) {
                steps[i] = s;
                i += 1;
            }
        }
        out.truncate(i);
    }
}

/// Whether one of `chevrons` has a forward neighbour in `fields` {G4}.
#[inline]
pub(crate) fn faces_any(chevrons: &ChevronList, fields: u128) -> bool {
    chevrons
        .iter()
        .any(|code| FORWARD_MASK[code as usize] & fields != 0)
}

/// Whether `seat` has any chevron step (pincers included) {S-R6a, L7, R15}.
///
/// First the quick test: a forward neighbour that is empty and not another player's
/// colour is a step of distance 1, which every power of movement allows {G4, A-R4, R5,
/// D39, D41}. Else the walk, which stops at the first plain step; a pincer needs the
/// whole walk (two attackers {R11}).
pub(crate) fn has_step(rules: &Rules, pos: &Position, seat: usize) -> bool {
    let seat = seat % 4;
    let own = pos.markers[seat];
    let blocked = pos.occupied() | (all_marked(&pos.markers, (pos.players as usize).min(4)) ^ own);
    if faces_any(&pos.chevrons[seat], !blocked) {
        return true;
    }
    let mut plain = false;
    let twice = walk_steps(rules, pos, seat, |s| {
        plain = !s.capture;
        !plain
    });
    plain || twice != 0
}

/// Whether a step is a connection change: a long move, without a jump, from and to own
/// fields {A-R7, R8, D13}; a chevron in between makes it a connection jump, which changes
/// no field (A-R8, R9, D11). A pincer is no connection.
#[inline]
pub(crate) fn is_connection(own: u128, s: &Step) -> bool {
    !s.capture && s.k >= 2 && !s.jumped && own >> s.f & 1 != 0 && own >> s.t & 1 != 0
}

/// What every Lilacru, Shacru or Azacru step of one position shares: what its twists
/// depend on.
pub(crate) struct PlainCtx {
    twist: bool,
    azacru: bool,
    end_triggered: bool,
    own: u128,
    other: u128,
}

impl PlainCtx {
    pub fn new(rules: &Rules, pos: &Position) -> PlainCtx {
        let own = pos.markers[pos.to_move as usize % 4];
        let marked = all_marked(&pos.markers, (pos.players as usize).min(4));
        PlainCtx {
            twist: rules.twist(),
            azacru: rules.azacru(),
            end_triggered: pos.trigger >= 0,
            own,
            other: marked ^ own,
        }
    }

    /// The twists of a Lilacru/Shacru/Azacru step {S-R4, A-R6, D3, D4, D5}: 0, -1, +1 on
    /// a border crossing in Shacru and Azacru, only 0 otherwise, once the Azacru end is
    /// triggered, or for an Azacru chevron removed by its own connection (D5).
    #[inline]
    pub fn twists(&self, s: &Step) -> &'static [i8] {
        const TWISTS: [i8; 3] = [0, -1, 1];
        if !self.twist || land_of(s.f) == land_of(s.t) || self.end_triggered {
            return &TWISTS[..1];
        }
        if self.azacru
            && is_connection(self.own, s)
            && BETWEEN[s.f as usize][s.t as usize] & self.other != 0
        {
            return &TWISTS[..1];
        }
        &TWISTS
    }
}

/// Fields the Pacru crossing benefit may go on, and whether it is a transformation.
///
/// Judged on the board after the move (and capture, D17): a borderland change on any
/// neutral field of the destination borderland that is unoccupied or the landing field
/// {R4, R6, D15}; else, when the borderland has no neutral field at all, a
/// transformation of an unoccupied non-own field {R10, D16}; else nothing (D14).
pub fn crossing_options(
    dest_land: usize,
    marked_after: u128,
    own_after: u128,
    occupied_after: u128,
    target: u8,
) -> (u128, bool) {
    let land = LAND_MASK[dest_land % 9];
    let taken = land & marked_after;
    if taken != land {
        let neutral = land ^ taken;
        return (
            (neutral & !occupied_after) | (neutral & (1u128 << (target % 81))),
            false,
        );
    }
    let free = land & !occupied_after;
    (free & !own_after, true)
}

/// What every Pacru step of one position shares.
pub(crate) struct PacruCtx<'a> {
    pub rules: &'a Rules,
    pub markers: &'a [u128; 4],
    pub n: usize,
    pub seat: usize,
    pub occupied: u128,
    pub marked: u128,
    pub own: u128,
    pub supply: i32,
    pub own_codes: &'a ChevronList,
    /// Whether any step may end in a meeting: always under the original rule; under the
    /// 2011 rule only when another player has at least 9 markers, since a move only takes
    /// markers away from the other players (D22).
    pub meetings: bool,
}

/// What the choices of one Pacru step depend on, the board after steps a. and b. (D30):
/// the mover's fields after a pincer, the markers left in the supply, whether the step is
/// a connection change, the crossing benefit's fields and the meeting partner.
struct Choices {
    own_a: u128,
    left: i32,
    conn: bool,
    fields: u128,
    partner: Option<u8>,
}

/// The choices of one step, in order: its twists, or its Pacru benefits (at most a
/// connection and the nine fields of a borderland).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Opts {
    buf: [Opt; 10],
    len: usize,
}

impl Opts {
    fn push(&mut self, o: Opt) {
        if let Some(slot) = self.buf.get_mut(self.len) {
            *slot = o;
            self.len += 1;
        }
    }

    /// The choices of a Lilacru, Shacru or Azacru step: one per twist {S-R4, A-R6}.
    pub fn twists(twists: &[i8]) -> Opts {
        let mut out = Opts {
            buf: [Opt::PLAIN; 10],
            len: 0,
        };
        for &twist in twists {
            out.push(Opt {
                twist,
                ..Opt::PLAIN
            });
        }
        out
    }

    /// The choices, in order.
    pub fn as_slice(&self) -> &[Opt] {
        &self.buf[..self.len]
    }
}

impl<'a> PacruCtx<'a> {
    pub fn new(rules: &'a Rules, pos: &'a Position) -> PacruCtx<'a> {
        let n = (pos.players as usize).min(4);
        let seat = pos.to_move as usize % 4;
        let own = pos.markers[seat];
        let meetings = rules.meeting_rule != MeetingRule::Y2011
            || pos.markers[..n]
                .iter()
                .enumerate()
                .any(|(i, m)| i != seat && m.count_ones() >= 9);
        PacruCtx {
            meetings,
            rules,
            markers: &pos.markers,
            n,
            seat,
            occupied: pos.occupied(),
            marked: all_marked(&pos.markers, n),
            own,
            supply: SUPPLY[n.min(4)] - field_count(own),
            own_codes: &pos.chevrons[seat],
        }
    }

    /// The field of the own chevron the moved one would meet, or None {R12}: the next
    /// field beyond the target in the direction of travel, facing back (D21).
    #[inline]
    fn meeting_partner(&self, t: u8, d: u8) -> Option<u8> {
        // Off the board (-1): no partner.
        let nb = u8::try_from(NEIGHBOUR[t as usize][d as usize]).ok()?;
        let code = u16::from(nb) * 8 + u16::from(d ^ 4);
        self.own_codes.contains_code(code).then_some(nb)
    }

    /// What the choices of step `s` depend on; None when a pincer placed the last marker
    /// of the supply, which leaves nothing to choose (R16b).
    ///
    /// {R4, R6, R8, R10, R12, D13-D17, D21, D29, D30}: a pincer turns the victim's field
    /// to the mover's colour (a.); the crossing benefit is judged on the board after the
    /// capture (D17).
    #[inline(always)]
    fn choices(&self, s: &Step) -> Option<Choices> {
        // A pincer turns the victim's field to the mover's colour unless it already is.
        let captured = s.capture && self.own >> s.t & 1 == 0;
        let left = self.supply - i32::from(captured);
        if left <= 0 {
            return None;
        }
        let own_a = if captured {
            self.own | 1u128 << s.t
        } else {
            self.own
        };
        let land = land_of(s.t);
        let fields = if land_of(s.f) == land {
            0
        } else {
            // Every field of own_a is marked: the victim's field joins the marked ones.
            let occupied = self.occupied | 1u128 << s.t;
            crossing_options(usize::from(land), self.marked | own_a, own_a, occupied, s.t).0
        };
        Some(Choices {
            own_a,
            left,
            conn: is_connection(self.own, s),
            fields,
            partner: if self.meetings {
                self.meeting_partner(s.t, s.d)
            } else {
                None
            },
        })
    }

    /// The number of complete moves of step `s`, the sum of [`Opt::size`] over its
    /// choices, counted without listing them when no meeting can follow
    /// {R4-R12, D13-D23, D29}; and whether its only choice is the plain step.
    #[inline]
    pub fn count(&self, s: &Step) -> (u64, bool) {
        let Some(c) = self.choices(s) else {
            return (1, true);
        };
        if c.partner.is_none() {
            let plain = !c.conn && c.fields == 0;
            let moves = u64::from(c.conn) + u64::from(count_few(c.fields)) + u64::from(plain);
            return (moves, plain);
        }
        let mut moves = 0;
        self.each_option(s, |o| {
            moves += o.size();
            true
        });
        (moves, false)
    }

    /// The choices of one Pacru step, in order: the connection change, then the crossing
    /// benefit's fields ascending, or neither; each with its meeting fields
    /// {R4-R12, D13-D23, D29}.
    pub fn options(&self, s: &Step) -> Opts {
        let mut out = Opts {
            buf: [Opt::PLAIN; 10],
            len: 0,
        };
        self.each_option(s, |o| {
            out.push(o);
            true
        });
        out
    }

    /// Visits the choices of [`PacruCtx::options`] in order until `visit` returns false.
    #[inline]
    pub fn each_option(&self, s: &Step, mut visit: impl FnMut(Opt) -> bool) {
        let Some(c) = self.choices(s) else {
            // R16b: the capture placed the last marker; nothing more to choose.
            visit(Opt::PLAIN);
            return;
        };
        let tbit = 1u128 << s.t;
        // The board after steps a. and b. (D30): a pincer changes the victim's field.
        let mut markers = *self.markers;
        if c.own_a != self.own {
            for (i, m) in markers[..self.n].iter_mut().enumerate() {
                *m = if i == self.seat { c.own_a } else { *m & !tbit };
            }
        }
        let occ_a = (self.occupied & !(1u128 << s.f)) | tbit;
        let option = |conn: bool, field: i8| Opt {
            twist: 0,
            conn,
            marker: field,
            meet: match c.partner {
                Some(p) => self.meeting_fields(&markers, c.own_a, occ_a, c.left, s, p, conn, field),
                None => 0,
            },
        };
        if c.conn && !visit(option(true, -1)) {
            return;
        }
        for field in bits(c.fields) {
            // A field (below 81) is an `i8` marker field.
            if !visit(option(false, i8::try_from(field).unwrap_or(-1))) {
                return;
            }
        }
        if !c.conn && c.fields == 0 {
            visit(option(false, -1));
        }
    }

    /// Bitboard of the fields a meeting may change after this benefit; 0 for no meeting.
    ///
    /// {R12}; the pair must be on own fields after the move's other effects (D21), the
    /// 2011 threshold counts every other colour after those effects (D22), targets are
    /// unoccupied non-own fields and the meeting is compulsory when one exists (D23); no
    /// meeting once the supply is exhausted (D29).
    #[allow(clippy::too_many_arguments)]
    fn meeting_fields(
        &self,
        markers: &[u128; 4],
        own_a: u128,
        occ_a: u128,
        left: i32,
        s: &Step,
        partner: u8,
        conn: bool,
        field: i8,
    ) -> u128 {
        let changed = benefit_fields(own_a, s.f, s.t, conn, field);
        if left - field_count(changed) <= 0 {
            return 0;
        }
        let own_b = own_a | changed;
        if own_b >> s.t & 1 == 0 || own_b >> partner & 1 == 0 {
            return 0;
        }
        if self.rules.meeting_rule == MeetingRule::Y2011 {
            let best = markers[..self.n]
                .iter()
                .enumerate()
                .filter(|&(i, _)| i != self.seat)
                .map(|(_, m)| (m & !changed).count_ones())
                .max()
                .unwrap_or(0);
            if best < 9 {
                return 0;
            }
        }
        FULL & !occ_a & !own_b
    }
}

/// The fields a chosen benefit turns to the mover's colour, as a bitboard.
///
/// A connection change: the intervening fields not already the mover's (`own_a`, after
/// any capture) {R8}; a crossing marker: its field {R4, R6, R10}; nothing for no field
/// without a connection. Each field takes a marker from the supply, and an empty supply
/// ends the move there (D29).
pub fn benefit_fields(own_a: u128, origin: u8, target: u8, conn: bool, field: i8) -> u128 {
    if conn {
        return BETWEEN[origin as usize % 81][target as usize % 81] & !own_a;
    }
    if (0..81).contains(&field) {
        1u128 << field
    } else {
        0
    }
}
