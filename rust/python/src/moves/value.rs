//! `pacru._native.Move`: the native engine's move, a frozen value holding the engine's
//! `pacru_engine::Move`, with the public API of the Python `pacru.chevron.move.Move`
//! (the constructor's checks and messages, the getters, `kind`, `parse`, `pass_move`,
//! `str`, `repr`, `==`, `hash`, copies and pickles).
//!
//! Its class is named `pacru.Move` (`__module__` "pacru"): on the native engine that name
//! is this class, and a pickle (`__reduce__`: the engine's move class and the
//! constructor's arguments) loads as the move class of the loading process's engine. Moves of the two classes
//! compare equal and hash alike on the packed key ([`packed_key`], the Python class's
//! `_key`). The binding imports no module of pacru's for it: `pacru.chevron.engine`
//! hands the Python classes it needs (the Python `Move`, the four `MoveKind` members,
//! `LegalMoves`) over once at import (`use_python_types`), kept in a `PyOnceLock`.

use pacru_engine as engine;
use pyo3::basic::CompareOp;
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBool, PyDict, PyTuple, PyType};

use super::arguments::{constructed, parse_text, PARAMETERS};
use super::frozen;

/// The Python classes the binding compares with and hands out, from `pacru.chevron.engine`.
struct PythonTypes {
    /// `pacru.chevron.move.Move`, whose objects the binding reads by attribute.
    move_class: Py<PyType>,
    /// `MoveKind.STEP`, `PINCER`, `REORIENTATION` and `PASS`.
    kinds: [Py<PyAny>; 4],
    /// `pacru.chevron.movelist.LegalMoves`, the Python engine's move list, which a native
    /// list's `==` recognizes (it is never called).
    legal_moves: Py<PyType>,
    /// The move class of the engine in use (`pacru.Move`), which a native move pickles as.
    engine_class: Py<PyType>,
}

static PYTHON_TYPES: PyOnceLock<PythonTypes> = PyOnceLock::new();

/// Keep the Python classes the binding needs (`pacru.chevron.engine` calls this once, at
/// import): the Python `Move` class, the `MoveKind` members step, pincer, reorientation
/// and pass, the `LegalMoves` class and the move class of the engine in use (`pacru.Move`:
/// this module's `Move` on the native engine). A later call changes nothing.
#[pyfunction]
pub(crate) fn use_python_types(
    move_class: &Bound<'_, PyType>,
    kinds: (Py<PyAny>, Py<PyAny>, Py<PyAny>, Py<PyAny>),
    legal_moves: &Bound<'_, PyType>,
    engine_class: &Bound<'_, PyType>,
) {
    let py = move_class.py();
    PYTHON_TYPES.get_or_init(py, || PythonTypes {
        move_class: move_class.clone().unbind(),
        kinds: [kinds.0, kinds.1, kinds.2, kinds.3],
        legal_moves: legal_moves.clone().unbind(),
        engine_class: engine_class.clone().unbind(),
    });
}

fn python_types(py: Python<'_>) -> PyResult<&PythonTypes> {
    PYTHON_TYPES.get(py).ok_or_else(|| {
        PyRuntimeError::new_err("pacru._native: pacru.chevron.engine has not handed over its types")
    })
}

/// Whether `value` is a move of either class (a native one, or a Python `pacru.Move`).
pub(crate) fn is_move(value: &Bound<'_, PyAny>) -> PyResult<bool> {
    if value.is_instance_of::<PyMove>() {
        return Ok(true);
    }
    value.is_instance(python_types(value.py())?.move_class.bind(value.py()))
}

/// Whether `value` is exactly of one of the two move classes.
pub(crate) fn is_exact_move(value: &Bound<'_, PyAny>) -> PyResult<bool> {
    let class = value.get_type();
    Ok(class.is(value.py().get_type::<PyMove>())
        || class.is(python_types(value.py())?.move_class.bind(value.py())))
}

/// The Python engine's `LegalMoves` class.
pub(crate) fn legal_moves_class(py: Python<'_>) -> PyResult<&Bound<'_, PyType>> {
    Ok(python_types(py)?.legal_moves.bind(py))
}

/// The number of a field that stands for None in [`packed_key`].
const NO_FIELD: u128 = 81;

/// The packed key of a move, as the Python `Move._key` packs it: origin (bits 0-6), target
/// (7-13), marker (14-20), meeting (21-27), each a field index or 81 for None; capture
/// (28), connection (29), twist + 1 (30-31), turn + 2 (32-34) and the bitboard of the
/// fields given up (35-115). Equal moves, and only they, have equal keys.
pub(crate) fn packed_key(m: &engine::Move) -> u128 {
    let field = |f: Option<engine::Field>| f.map_or(NO_FIELD, |f| u128::from(f.get()));
    let small = |v: i8, offset: i8| u128::from((v + offset).cast_unsigned());
    field(m.origin())
        | field(m.target()) << 7
        | field(m.marker()) << 14
        | field(m.meeting()) << 21
        | u128::from(m.capture()) << 28
        | u128::from(m.connection()) << 29
        | small(m.twist(), 1) << 30
        | small(m.turn(), 2) << 32
        | m.relinquished() << 35
}

/// CPython's hash of a non-negative int `key`: `key mod (2**61 - 1)` on a 64-bit build
/// (never -1, which CPython reserves), so a native move hashes as `hash(move._key)`.
pub(crate) fn int_hash(key: u128) -> isize {
    const MODULUS: u128 = (1 << 61) - 1;
    isize::try_from(key % MODULUS).unwrap_or(isize::MAX)
}

/// One complete move of a chevron game, with every choice the player made.
///
/// The native engine's move class, named ``pacru.Move`` in reprs and pickles: a
/// frozen value that the engine makes when a list hands it out. All fields are field
/// indices 0..80 (``a1 = 0``, row-major from rank 1; see :mod:`pacru.geometry`) or
/// ``None``. The constructor takes the fields, ``twist`` and ``turn`` as ``int`` or any
/// integer type :func:`operator.index` accepts (numpy integers), and stores them as
/// ``int``; a ``bool`` is refused.
///
/// Attributes:
///     origin: the chevron's field; ``None`` only for a pass.
///     target: the destination field (for a pincer the victim's field);
///         ``None`` for a reorientation or a pass.
///     capture: True for a Pacru pincer {R11}.
///     twist: the Shacru/Azacru borderland twist {S-R4, A-R6}: -1 turns the
///         chevron 45 degrees anticlockwise after the move, +1 clockwise, 0 none.
///     turn: a Pacru reorientation {R14} in 45-degree steps, clockwise
///         positive: -2, -1, 1 or 2; 0 for every other move.
///     connection: the Pacru connection change is taken {R8}.
///     marker: the Pacru border-crossing marker's field {R4, R6, R10}, or None.
///     meeting: the field changed by a Pacru meeting {R12}, or None.
///     relinquished: the own fields given up by a reorientation {R14},
///         ascending.
///
/// Build moves with :meth:`parse` or the keyword constructor; states produce
/// them in :meth:`pacru.ChevronState.legal_moves`.
///
/// Moves are values: equal parts compare equal and hash alike (by their packed
/// key), also against the Python engine's moves; ``isinstance(m, pacru.Move)``
/// holds on both engines, and a pickle of a move loads on either engine.
///
/// Raises:
///     ValueError: a field that is not an ``int`` 0..80, a relinquished field
///         named twice, a ``twist``/``turn`` that is not one of its ``int``
///         values, a ``capture``/``connection`` that is not a ``bool``, or a
///         combination the notation cannot write.
#[pyclass(frozen, weakref, module = "pacru", name = "Move")]
pub(crate) struct PyMove {
    pub(crate) m: engine::Move,
}

/// The pass, made once: `parse("pass")`, `pass_move()` and the lists give this object, as
/// the Python class gives its one pass.
static PASS: PyOnceLock<Py<PyMove>> = PyOnceLock::new();

impl PyMove {
    /// The native move of an engine move.
    pub(crate) fn of(m: engine::Move) -> PyMove {
        PyMove { m }
    }

    /// A native move object of `m` (the one pass object for the pass).
    pub(crate) fn object(py: Python<'_>, m: engine::Move) -> PyResult<Bound<'_, PyMove>> {
        if m.is_pass() {
            let pass = PASS.get_or_try_init(py, || Py::new(py, PyMove::of(m)))?;
            return Ok(pass.bind(py).clone());
        }
        Bound::new(py, PyMove::of(m))
    }

    /// The constructor's arguments of this move, in order.
    #[allow(clippy::type_complexity)]
    fn parts<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let m = &self.m;
        let field = |f: Option<engine::Field>| f.map(|f| f.get());
        (
            field(m.origin()),
            field(m.target()),
            m.capture(),
            m.twist(),
            m.turn(),
            m.connection(),
            field(m.marker()),
            field(m.meeting()),
            self.relinquished(py)?,
        )
            .into_pyobject(py)
    }
}

#[pymethods]
impl PyMove {
    /// `Move(origin=None, target=None, capture=False, twist=0, turn=0, connection=False,
    /// marker=None, meeting=None, relinquished=())`, positional or by keyword, with the
    /// checks and `ValueError` messages of the Python class.
    #[new]
    #[pyo3(signature = (*args, **kwargs))]
    fn new(args: &Bound<'_, PyTuple>, kwargs: Option<&Bound<'_, PyDict>>) -> PyResult<PyMove> {
        constructed(args, kwargs).map(PyMove::of)
    }

    /// The move written as `text` (see `pacru.Move.parse`); `NotationError` otherwise.
    #[classmethod]
    fn parse<'py>(
        cls: &Bound<'py, PyType>,
        text: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyMove>> {
        PyMove::object(cls.py(), parse_text(text)?)
    }

    /// The pass {S-R2, A-R2, A-R10, D34, D37}: always the same object.
    #[classmethod]
    fn pass_move<'py>(cls: &Bound<'py, PyType>) -> PyResult<Bound<'py, PyMove>> {
        PyMove::object(cls.py(), engine::Move::Pass)
    }

    /// The chevron's field; None only for a pass.
    #[getter]
    fn origin(&self) -> Option<u8> {
        self.m.origin().map(|f| f.get())
    }

    /// The destination field (a pincer's: the victim's); None for a reorientation or pass.
    #[getter]
    fn target(&self) -> Option<u8> {
        self.m.target().map(|f| f.get())
    }

    /// True for a Pacru pincer {R11}.
    #[getter]
    fn capture(&self) -> bool {
        self.m.capture()
    }

    /// The borderland twist {S-R4, A-R6}: -1, 0 or 1.
    #[getter]
    fn twist(&self) -> i8 {
        self.m.twist()
    }

    /// A Pacru reorientation's turn {R14}: -2, -1, 1 or 2; 0 for every other move.
    #[getter]
    fn turn(&self) -> i8 {
        self.m.turn()
    }

    /// The Pacru connection change is taken {R8}.
    #[getter]
    fn connection(&self) -> bool {
        self.m.connection()
    }

    /// The Pacru border-crossing marker's field {R4, R6, R10}, or None.
    #[getter]
    fn marker(&self) -> Option<u8> {
        self.m.marker().map(|f| f.get())
    }

    /// The field changed by a Pacru meeting {R12}, or None.
    #[getter]
    fn meeting(&self) -> Option<u8> {
        self.m.meeting().map(|f| f.get())
    }

    /// The own fields a reorientation gives up {R14}, ascending.
    #[getter]
    fn relinquished<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let mut fields = Vec::new();
        let mut rest = self.m.relinquished();
        while rest != 0 {
            fields.push(rest.trailing_zeros());
            rest &= rest - 1;
        }
        PyTuple::new(py, fields)
    }

    /// Whether this is a step, pincer, reorientation or pass (a `pacru.MoveKind`).
    #[getter]
    fn kind(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let kinds = &python_types(py)?.kinds;
        let i = match self.m {
            engine::Move::Step(_) => 0,
            engine::Move::Pincer(_) => 1,
            engine::Move::Reorientation { .. } => 2,
            engine::Move::Pass => 3,
        };
        Ok(kinds[i].clone_ref(py))
    }

    /// The packed key both move classes compare and hash by (see [`packed_key`]).
    #[getter]
    fn _key(&self) -> u128 {
        packed_key(&self.m)
    }

    #[classattr]
    fn __match_args__(py: Python<'_>) -> PyResult<Bound<'_, PyTuple>> {
        PyTuple::new(py, PARAMETERS)
    }

    fn __str__(&self) -> String {
        self.m.to_string()
    }

    /// `Move.parse('e4-e5')`.
    fn __repr__(&self) -> String {
        format!("Move.parse('{}')", self.m)
    }

    /// Equal to a native move of the same engine move; against any other object
    /// `NotImplemented`, so that a Python `Move` compares by its own `__eq__` (the keys).
    fn __richcmp__(&self, other: &Bound<'_, PyAny>, op: CompareOp) -> Py<PyAny> {
        let py = other.py();
        let equal = match (op, other.cast::<PyMove>()) {
            (CompareOp::Eq | CompareOp::Ne, Ok(other)) => other.get().m == self.m,
            _ => return py.NotImplemented(),
        };
        PyBool::new(py, equal == matches!(op, CompareOp::Eq))
            .to_owned()
            .into_any()
            .unbind()
    }

    /// `hash(self._key)`, as the Python class hashes.
    fn __hash__(&self) -> isize {
        int_hash(packed_key(&self.m))
    }

    /// The move class of the engine in use and the constructor's arguments: on the
    /// native engine the pickle names `pacru.Move` (this class), which loads as the move
    /// class of the loading process's engine; on the Python engine it names the Python
    /// class.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let class = python_types(py)?.engine_class.bind(py);
        (class, self.parts(py)?).into_pyobject(py)
    }

    /// An immutable value: a copy is the move itself.
    fn __copy__(slf: &Bound<'_, Self>) -> Py<Self> {
        slf.clone().unbind()
    }

    fn __deepcopy__(slf: &Bound<'_, Self>, _memo: &Bound<'_, PyAny>) -> Py<Self> {
        slf.clone().unbind()
    }

    fn __setattr__(
        &self,
        py: Python<'_>,
        _name: &Bound<'_, PyAny>,
        _value: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        Err(frozen(py))
    }

    fn __delattr__(&self, py: Python<'_>, _name: &Bound<'_, PyAny>) -> PyResult<()> {
        Err(frozen(py))
    }
}
