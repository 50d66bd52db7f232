/* symcute.core._fastlayout: the Layout constructor's input check and the first evaluation's flat form, in C.

   Optional: setup.py builds it where a C compiler is found (the build is marked optional), and
   core/layout.py falls back to the same checks in Python without it.  Both answer the same questions:

   plain_pair(shape, stride) -> 0, 1 or 2
       1 (or 2 while a work budget is open, core/budget.py's OPEN[0] != 0, so that the caller charges
       the layout) when shape and stride are congruent tuples (nested at most MAX_DEPTH deep) of exact
       ``int`` leaves, the stride's leaves ``int`` or ScaledBasis, or when both are such leaves;
       0 for anything else (the caller's full check then decides, with its error).
   flat_modes(shape, stride) -> (flat shape, flat stride, all strides ints, has an empty mode,
                                 has a negative extent), or None where the two are not congruent.
   init(layout, shape, stride) -> plain_pair(shape, stride); where that is not 0, the layout's
       _shape, _stride and _hash slots are set (shape, stride, None), as Layout.__init__ sets them.
   setup(scaled_basis_type, open_list, max_depth) -> None: what plain_pair needs from core/layout.py.
   slots(Layout, Layout._shape, Layout._stride, Layout._hash) -> None: where init stores.
   make_init(Layout, python_init, init_checked, charge_tuple) -> Layout.__init__ in C: the plain case
       checked and stored without a Python frame, the rest handed to init_checked (positional calls)
       or to the Python __init__ (calls with keywords).
*/
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>

static PyObject *scaled_basis = NULL;   /* symcute.core.basis.ScaledBasis */
static PyObject *open_list = NULL;      /* symcute.core.budget.OPEN */
static int max_depth = 64;
static PyTypeObject *layout_type = NULL;   /* symcute.core.layout.Layout */
static Py_ssize_t off_shape = -1, off_stride = -1, off_hash = -1;   /* its slots' offsets */

static int
stride_leaf(PyObject *d)
{
    return PyLong_CheckExact(d) || (scaled_basis != NULL && (PyObject *)Py_TYPE(d) == scaled_basis);
}

/* 1: congruent tuples of plain leaves; 0: anything else */
static int
pair_ok(PyObject *s, PyObject *d, int depth)
{
    if (PyLong_CheckExact(s))
        return stride_leaf(d);
    if (!PyTuple_CheckExact(s) || !PyTuple_CheckExact(d) || depth >= max_depth)
        return 0;
    Py_ssize_t n = PyTuple_GET_SIZE(s);
    if (PyTuple_GET_SIZE(d) != n)
        return 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *x = PyTuple_GET_ITEM(s, i), *y = PyTuple_GET_ITEM(d, i);
        if (PyLong_CheckExact(x)) {
            if (!stride_leaf(y))
                return 0;
        }
        else if (!pair_ok(x, y, depth + 1))
            return 0;
    }
    return 1;
}

/* -1 on an error, else plain_pair's answer */
static int
check(PyObject *shape, PyObject *stride)
{
    if (!pair_ok(shape, stride, 0))
        return 0;
    if (open_list != NULL && PyList_GET_SIZE(open_list) > 0) {
        int open = PyObject_IsTrue(PyList_GET_ITEM(open_list, 0));
        if (open < 0)
            return -1;
        if (open)
            return 2;
    }
    return 1;
}

static PyObject *
plain_pair(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "plain_pair(shape, stride)");
        return NULL;
    }
    int answer = check(args[0], args[1]);
    return answer < 0 ? NULL : PyLong_FromLong(answer);
}

/* flags: bit 0 a non-int stride leaf, bit 1 an empty tuple, bit 2 a negative int extent, bit 3 not congruent */
static int
flatten_into(PyObject *s, PyObject *d, PyObject *fs, PyObject *fd, int *flags, int depth)
{
    if (!PyTuple_CheckExact(s)) {   /* a leaf, as flatten_to_tuple reads it (type(t) is not tuple) */
        if (PyList_Append(fs, s) < 0 || PyList_Append(fd, d) < 0)
            return -1;
        if (!PyLong_CheckExact(d))
            *flags |= 1;
        if (PyLong_Check(s)) {
            int overflow = 0;
            long long v = PyLong_AsLongLongAndOverflow(s, &overflow);
            if (v == -1 && overflow == 0 && PyErr_Occurred())
                return -1;
            if (overflow < 0 || (overflow == 0 && v < 0))
                *flags |= 4;
        }
        return 0;
    }
    if (depth > 4 * max_depth) {
        PyErr_SetString(PyExc_RecursionError, "layout nested too deeply");
        return -1;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(s);
    if (n == 0)
        *flags |= 2;
    if (!PyTuple_CheckExact(d) || PyTuple_GET_SIZE(d) != n) {
        *flags |= 8;   /* the caller flattens each side on its own */
        return 0;
    }
    for (Py_ssize_t i = 0; i < n; i++)
        if (flatten_into(PyTuple_GET_ITEM(s, i), PyTuple_GET_ITEM(d, i), fs, fd, flags, depth + 1) < 0)
            return -1;
    return 0;
}

static PyObject *
flat_modes(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "flat_modes(shape, stride)");
        return NULL;
    }
    PyObject *fs = PyList_New(0), *fd = PyList_New(0), *ts = NULL, *td = NULL, *out = NULL;
    int flags = 0;
    if (fs == NULL || fd == NULL)
        goto done;
    if (flatten_into(args[0], args[1], fs, fd, &flags, 0) < 0)
        goto done;
    if (flags & 8) {
        out = Py_NewRef(Py_None);
        goto done;
    }
    ts = PyList_AsTuple(fs);
    td = PyList_AsTuple(fd);
    if (ts == NULL || td == NULL)
        goto done;
    out = Py_BuildValue("(OOOOO)", ts, td, (flags & 1) ? Py_False : Py_True, (flags & 2) ? Py_True : Py_False,
                        (flags & 4) ? Py_True : Py_False);
done:
    Py_XDECREF(fs);
    Py_XDECREF(fd);
    Py_XDECREF(ts);
    Py_XDECREF(td);
    return out;
}

static void
store(PyObject *obj, Py_ssize_t offset, PyObject *value)
{
    PyObject **addr = (PyObject **)((char *)obj + offset);
    Py_INCREF(value);
    Py_XSETREF(*addr, value);
}

/* init(layout, shape, stride) -> 0, 1 or 2: plain_pair's answer; on 1 and 2 the three slots are set */
static PyObject *
init(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 3 || layout_type == NULL || !PyObject_TypeCheck(args[0], layout_type)) {
        PyErr_SetString(PyExc_TypeError, "init(layout, shape, stride) after slots()");
        return NULL;
    }
    int answer = check(args[1], args[2]);
    if (answer <= 0)
        return answer < 0 ? NULL : PyLong_FromLong(0);
    store(args[0], off_shape, args[1]);
    store(args[0], off_stride, args[2]);
    store(args[0], off_hash, Py_None);
    return PyLong_FromLong(answer);
}

static PyObject *py_init = NULL;      /* the Python Layout.__init__: calls with keywords go there */
static PyObject *py_checked = NULL;   /* Layout._init_checked: the full path */
static PyObject *py_charge = NULL;    /* budget.charge_tuple */

/* Layout.__init__(self, shape, stride=None) as a method descriptor of Layout */
static PyObject *
layout_init(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    Py_ssize_t nkw = kwnames == NULL ? 0 : PyTuple_GET_SIZE(kwnames);
    if (nkw || nargs < 1 || nargs > 2) {
        PyObject *stack[8];
        if (nargs + nkw + 1 > 8) {
            PyErr_SetString(PyExc_TypeError, "Layout() takes a shape and an optional stride");
            return NULL;
        }
        stack[0] = self;
        for (Py_ssize_t i = 0; i < nargs + nkw; i++)
            stack[i + 1] = args[i];
        return PyObject_Vectorcall(py_init, stack, nargs + 1, kwnames);
    }
    PyObject *shape = args[0], *stride = nargs == 2 ? args[1] : Py_None;
    int answer = check(shape, stride);
    if (answer < 0)
        return NULL;
    if (answer == 0) {
        PyObject *stack[3] = {self, shape, stride};
        return PyObject_Vectorcall(py_checked, stack, 3, NULL);
    }
    store(self, off_shape, shape);
    store(self, off_stride, stride);
    store(self, off_hash, Py_None);
    if (answer == 2) {
        PyObject *stack[2] = {shape, stride};
        return PyObject_Vectorcall(py_charge, stack, 2, NULL);
    }
    Py_RETURN_NONE;
}

static PyMethodDef layout_init_def = {
    "__init__", (PyCFunction)(void (*)(void))layout_init, METH_FASTCALL | METH_KEYWORDS,
    "__init__($self, /, shape, stride=None)\n--\n\nLayout(shape, stride): checked in C (core/_fastlayout.c)."};

/* make_init(Layout, python_init, init_checked, charge_tuple) -> the method descriptor for Layout.__init__ */
static PyObject *
make_init(PyObject *self, PyObject *args)
{
    PyObject *type, *init, *checked, *charge;
    if (!PyArg_ParseTuple(args, "O!OOO", &PyType_Type, &type, &init, &checked, &charge))
        return NULL;
    if (layout_type == NULL || (PyObject *)layout_type != type) {
        PyErr_SetString(PyExc_TypeError, "make_init(): call slots() for this type first");
        return NULL;
    }
    Py_INCREF(init);
    Py_XSETREF(py_init, init);
    Py_INCREF(checked);
    Py_XSETREF(py_checked, checked);
    Py_INCREF(charge);
    Py_XSETREF(py_charge, charge);
    return PyDescr_NewMethod((PyTypeObject *)type, &layout_init_def);
}

static Py_ssize_t
slot_offset(PyObject *descr)
{
    if (!Py_IS_TYPE(descr, &PyMemberDescr_Type)) {
        PyErr_SetString(PyExc_TypeError, "slots(): expected a __slots__ member descriptor");
        return -1;
    }
    PyMemberDef *m = ((PyMemberDescrObject *)descr)->d_member;
    if (m->type != T_OBJECT_EX) {
        PyErr_SetString(PyExc_TypeError, "slots(): not an object slot");
        return -1;
    }
    return m->offset;
}

static PyObject *
slots(PyObject *self, PyObject *args)
{
    PyObject *type, *shape, *stride, *hash;
    if (!PyArg_ParseTuple(args, "O!OOO", &PyType_Type, &type, &shape, &stride, &hash))
        return NULL;
    Py_ssize_t a = slot_offset(shape), b = slot_offset(stride), c = slot_offset(hash);
    if (a < 0 || b < 0 || c < 0)
        return NULL;
    Py_INCREF(type);
    Py_XSETREF(layout_type, (PyTypeObject *)type);
    off_shape = a;
    off_stride = b;
    off_hash = c;
    Py_RETURN_NONE;
}

static PyObject *
setup(PyObject *self, PyObject *args)
{
    PyObject *basis, *open;
    int depth;
    if (!PyArg_ParseTuple(args, "OO!i", &basis, &PyList_Type, &open, &depth))
        return NULL;
    Py_INCREF(basis);
    Py_XSETREF(scaled_basis, basis);
    Py_INCREF(open);
    Py_XSETREF(open_list, open);
    max_depth = depth;
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"plain_pair", (PyCFunction)(void (*)(void))plain_pair, METH_FASTCALL,
     "plain_pair(shape, stride) -> 0, 1 or 2 (see the module's header comment)"},
    {"flat_modes", (PyCFunction)(void (*)(void))flat_modes, METH_FASTCALL,
     "flat_modes(shape, stride) -> (flat shape, flat stride, ints, empty, signed)"},
    {"setup", setup, METH_VARARGS, "setup(ScaledBasis, OPEN, MAX_DEPTH)"},
    {"init", (PyCFunction)(void (*)(void))init, METH_FASTCALL,
     "init(layout, shape, stride) -> plain_pair's answer; where it is not 0, the layout's slots are set"},
    {"slots", slots, METH_VARARGS, "slots(Layout, Layout._shape, Layout._stride, Layout._hash)"},
    {"make_init", make_init, METH_VARARGS,
     "make_init(Layout, python_init, init_checked, charge_tuple) -> a method descriptor for Layout.__init__"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_fastlayout",
    "The Layout constructor's input check and the first evaluation's flat form, in C (optional).", -1, methods,
};

PyMODINIT_FUNC
PyInit__fastlayout(void)
{
    return PyModule_Create(&module);
}
