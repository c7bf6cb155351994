/* The auction-aware deal sampling in C: the loop of advice/sampling.py's _deals, bit for bit.
 *
 * pepper_tutor/analysis/native.py builds this file into _sampling_native*.so beside the native
 * search, and advice/native_sampling.py uses it only while the digest it was built with
 * (SOURCE_DIGEST) matches this file and the Python it mirrors (dealing.py, calling.py,
 * advice/sampling.py, advice/native_sampling.py). The Python path stays the oracle (and the
 * browser's path): tests/test_native_sampling.py checks both give the same deals, the same
 * counts and leave the random.Random in the same state.
 *
 * What it reproduces, exactly:
 *
 * - CPython's Mersenne Twister (Modules/_randommodule.c): genrand_uint32, getrandbits(k)
 *   for k <= 64 (the words little-endian), random() (53 bits from two words), and
 *   random.py's _randbelow (getrandbits(n.bit_length()) until below n), randrange(n) and
 *   shuffle. The state comes in as random.Random.getstate()'s 625 words and goes out the
 *   same way; the caller checks at import that this interpreter's random module draws the
 *   same numbers (another Python, another algorithm: the Python path runs).
 * - Dealer.deal (dealing.py): a layout by bisect_right on the cumulative weights, a shuffle
 *   per class of cards, a shuffle per group, each bucket's cards sorted.
 * - _CallsAccept.__call__ where only the calling model is read (no bid signals, no rebuilt
 *   hands): auction_weight's product over the counted calls, in call order, with its early
 *   return of 0, each term call_likelihood's min(1, _mass(low, top, estimate) / best). What is
 *   the same for every deal (each call's window, whose estimate: hand_value or
 *   declared_value in a trump and way) is worked out in Python and handed over; here are
 *   hand_tricks, hand_value, declared_value and _mass over the hand (the bucket's cards, then
 *   the cards the seat played: the float sums follow that order). Built with
 *   -ffp-contract=off, so no multiply-add is fused and every float is Python's.
 * - _deals's loop for one kept deal: draw, weigh, keep with rng.random() < weight, the deals
 *   that could have made the calls remembered, the tries and the budget for all samples.
 *   Where the loop ends forced with deals remembered, they are handed back and Python picks
 *   one (inference.pick_by_weight): its sum is Python's own.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifndef SOURCE_DIGEST
#define SOURCE_DIGEST ""
#endif

/* Python's floats, operation by operation: never reassociated, never fused. */
#ifdef __FAST_MATH__
#error "the sampling's floats must be Python's: build without -ffast-math"
#endif
#ifdef __clang__
#pragma STDC FP_CONTRACT OFF /* GCC takes -ffp-contract=off, which the build passes */
#endif

/* ---- the Mersenne Twister, as CPython's _randommodule.c ---------------------------------- */

#define MT_N 624
#define MT_M 397

typedef struct {
    uint32_t mt[MT_N];
    int index;
} MT;

static uint32_t genrand_uint32(MT *r) {
    static const uint32_t mag01[2] = {0x0U, 0x9908b0dfU};
    uint32_t y;
    uint32_t *mt = r->mt;
    if (r->index >= MT_N) {
        int kk;
        for (kk = 0; kk < MT_N - MT_M; kk++) {
            y = (mt[kk] & 0x80000000U) | (mt[kk + 1] & 0x7fffffffU);
            mt[kk] = mt[kk + MT_M] ^ (y >> 1) ^ mag01[y & 0x1U];
        }
        for (; kk < MT_N - 1; kk++) {
            y = (mt[kk] & 0x80000000U) | (mt[kk + 1] & 0x7fffffffU);
            mt[kk] = mt[kk + (MT_M - MT_N)] ^ (y >> 1) ^ mag01[y & 0x1U];
        }
        y = (mt[MT_N - 1] & 0x80000000U) | (mt[0] & 0x7fffffffU);
        mt[MT_N - 1] = mt[MT_M - 1] ^ (y >> 1) ^ mag01[y & 0x1U];
        r->index = 0;
    }
    y = mt[r->index++];
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= (y >> 18);
    return y;
}

/* getrandbits(k), 1 <= k <= 64: for k > 32 the first word drawn is the low one. */
static uint64_t getrandbits(MT *r, int k) {
    if (k <= 32)
        return (uint64_t)(genrand_uint32(r) >> (32 - k));
    uint64_t low = genrand_uint32(r);
    uint64_t high = genrand_uint32(r) >> (64 - k);
    return low | high << 32;
}

static double random_double(MT *r) {
    uint32_t a = genrand_uint32(r) >> 5, b = genrand_uint32(r) >> 6;
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
}

static int bit_length(uint64_t n) { return n ? 64 - __builtin_clzll(n) : 0; }

/* random.py's _randbelow_with_getrandbits, n >= 1. */
static uint64_t randbelow(MT *r, uint64_t n) {
    int k = bit_length(n);
    uint64_t x = getrandbits(r, k);
    while (x >= n)
        x = getrandbits(r, k);
    return x;
}

static void shuffle(MT *r, int *x, int len) {
    for (int i = len - 1; i >= 1; i--) {
        int j = (int)randbelow(r, (uint64_t)i + 1);
        int t = x[i];
        x[i] = x[j];
        x[j] = t;
    }
}

/* The state from getstate()'s middle tuple (624 words and the index); 0, or -1 with an
 * exception set. */
static int read_state(PyObject *words, MT *r) {
    if (!PyTuple_Check(words) || PyTuple_GET_SIZE(words) != MT_N + 1) {
        PyErr_SetString(PyExc_ValueError, "a Mersenne Twister state is 625 numbers");
        return -1;
    }
    for (int i = 0; i < MT_N; i++) {
        unsigned long v = PyLong_AsUnsignedLong(PyTuple_GET_ITEM(words, i));
        if (v == (unsigned long)-1 && PyErr_Occurred())
            return -1;
        r->mt[i] = (uint32_t)v;
    }
    long index = PyLong_AsLong(PyTuple_GET_ITEM(words, MT_N));
    if (index == -1 && PyErr_Occurred())
        return -1;
    if (index < 0 || index > MT_N) {
        PyErr_SetString(PyExc_ValueError, "a Mersenne Twister index is 0 to 624");
        return -1;
    }
    r->index = (int)index;
    return 0;
}

static PyObject *write_state(const MT *r) {
    PyObject *out = PyTuple_New(MT_N + 1);
    if (out == NULL)
        return NULL;
    for (int i = 0; i <= MT_N; i++) {
        PyObject *v = i < MT_N ? PyLong_FromUnsignedLong(r->mt[i]) : PyLong_FromLong(r->index);
        if (v == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, i, v);
    }
    return out;
}

/* ---- the dealer and the calling model ---------------------------------------------------- */

#define MAX_CARDS 24
#define MAX_BUCKETS 8
#define MAX_CALLS 64

typedef struct {
    int bucket;               /* the caller's bucket in the deal */
    int played[MAX_CARDS];    /* the cards it played, in play order */
    int n_played;
    double low, top, best;    /* the call's window (_window) */
    int declared;             /* 0: hand_value; 1: declared_value in trump, alone */
    int trump, alone;         /* alone: 0, 1, or -1 not yet declared */
} Term;

typedef struct {
    /* the dealer */
    int n_buckets, n_groups, n_classes, n_layouts;
    int counts[MAX_BUCKETS], group_of[MAX_BUCKETS];
    int class_len[1 << MAX_BUCKETS], class_start[1 << MAX_BUCKETS];
    int class_cards[MAX_CARDS];
    int *layouts;             /* n_layouts x n_classes x n_groups parts */
    uint64_t *cumulative;
    /* the calls read (none: every deal is kept) */
    int accept;
    int n_terms;
    Term terms[MAX_CALLS];
    int8_t suits[5][MAX_CARDS], ranks[5][MAX_CARDS]; /* per trump 0-4, under the rules' code */
    int has_exchange, partner;
} Sampler;

static const double TRUMP_WORTH[7] = {0.35, 0.35, 0.45, 0.55, 0.75, 0.85, 1.0};
#define NT_ACE 0.9
#define NT_GUARDED_KING 0.55
#define NT_KING 0.2
#define PLAIN_ACE 0.65
#define PLAIN_KING_WITH_ACE 0.3
#define PARTNER 1.1
#define EXCHANGE 0.55
#define SPREAD 0.8

static void deal_one(const Sampler *s, MT *r, int out[MAX_BUCKETS][MAX_CARDS]) {
    uint64_t x = randbelow(r, s->cumulative[s->n_layouts - 1]);
    int lo = 0, hi = s->n_layouts; /* bisect_right: the first cumulative above x */
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (x < s->cumulative[mid])
            hi = mid;
        else
            lo = mid + 1;
    }
    const int *layout = s->layouts + (size_t)lo * s->n_classes * s->n_groups;
    int groups[MAX_BUCKETS][MAX_CARDS], glen[MAX_BUCKETS] = {0};
    for (int c = 0; c < s->n_classes; c++) {
        int shuffled[MAX_CARDS], len = s->class_len[c];
        memcpy(shuffled, s->class_cards + s->class_start[c], sizeof(int) * len);
        shuffle(r, shuffled, len);
        int start = 0;
        for (int g = 0; g < s->n_groups; g++) {
            int n = layout[c * s->n_groups + g];
            memcpy(groups[g] + glen[g], shuffled + start, sizeof(int) * n);
            glen[g] += n;
            start += n;
        }
    }
    for (int g = 0; g < s->n_groups; g++)
        shuffle(r, groups[g], glen[g]);
    int taken[MAX_BUCKETS] = {0};
    for (int b = 0; b < s->n_buckets; b++) {
        int g = s->group_of[b], n = s->counts[b];
        int *cards = out[b];
        memcpy(cards, groups[g] + taken[g], sizeof(int) * n);
        taken[g] += n;
        for (int i = 1; i < n; i++) { /* sorted: an insertion sort of six cards */
            int v = cards[i], j = i - 1;
            while (j >= 0 && cards[j] > v) {
                cards[j + 1] = cards[j];
                j--;
            }
            cards[j + 1] = v;
        }
    }
}

static double hand_tricks(const Sampler *s, const int *hand, int n, int trump) {
    const int8_t *suits = s->suits[trump], *ranks = s->ranks[trump];
    int aced[5] = {0};
    for (int i = 0; i < n; i++)
        if (ranks[hand[i]] == 5)
            aced[suits[hand[i]]] = 1;
    double total = 0.0;
    if (trump == 4) {
        for (int i = 0; i < n; i++) {
            int c = hand[i], rank = ranks[c];
            if (rank == 5) {
                total += NT_ACE;
            } else if (rank == 4) {
                int suit = suits[c], same = 0;
                for (int k = 0; k < n; k++)
                    same += suits[hand[k]] == suit;
                total += (aced[suit] || same >= 2) ? NT_GUARDED_KING : NT_KING;
            }
        }
        return total;
    }
    int trumps = 0;
    for (int i = 0; i < n; i++) {
        int c = hand[i], suit = suits[c];
        if (suit == trump) {
            trumps++;
            total += TRUMP_WORTH[ranks[c]];
        } else if (ranks[c] == 5) {
            total += PLAIN_ACE;
        } else if (ranks[c] == 4 && aced[suit]) {
            total += PLAIN_KING_WITH_ACE;
        }
    }
    if (trumps >= 3)
        total += 0.3 * (trumps - 2);
    return total;
}

static double hand_value(const Sampler *s, const int *hand, int n) {
    double best = -1.0;
    int ways = s->has_exchange ? 2 : 1;
    for (int trump = 0; trump < 5; trump++) {
        double own = hand_tricks(s, hand, n, trump);
        for (int alone = 0; alone < ways; alone++) {
            double e = s->partner ? own + ((alone && s->has_exchange) ? EXCHANGE : PARTNER) : own;
            if (alone)
                e -= 0.4;
            if (e > best)
                best = e;
        }
    }
    return best;
}

static double side_minus(const Sampler *s, double own, int alone) {
    double e = own;
    if (s->partner)
        e = (alone && s->has_exchange) ? own + EXCHANGE : own + PARTNER;
    return e - (alone ? 0.4 : 0.0);
}

static double declared_value(const Sampler *s, const int *hand, int n, int trump, int alone) {
    if (alone >= 0)
        return side_minus(s, hand_tricks(s, hand, n, trump), alone);
    double best = side_minus(s, hand_tricks(s, hand, n, trump), 0);
    if (s->has_exchange) {
        double e = side_minus(s, hand_tricks(s, hand, n, trump), 1);
        if (e > best)
            best = e;
    }
    return best;
}

static double phi(double x) { return 0.5 * (1.0 + erf(x / sqrt(2.0))); }

static double mass(double low, double top, double centre) {
    return phi((top - centre) / SPREAD) - phi((low - centre) / SPREAD);
}

static double weight_of(const Sampler *s, int deal[MAX_BUCKETS][MAX_CARDS]) {
    double weight = 1.0;
    for (int t = 0; t < s->n_terms; t++) {
        const Term *term = &s->terms[t];
        double likelihood = 1.0;
        if (!(term->low == -INFINITY && term->top == INFINITY)) {
            int hand[2 * MAX_CARDS], n = s->counts[term->bucket];
            memcpy(hand, deal[term->bucket], sizeof(int) * n);
            memcpy(hand + n, term->played, sizeof(int) * term->n_played);
            n += term->n_played;
            double estimate = term->declared
                ? declared_value(s, hand, n, term->trump, term->alone) : hand_value(s, hand, n);
            double m = mass(term->low, term->top, estimate) / term->best;
            likelihood = m < 1.0 ? m : 1.0; /* min(1.0, m) */
        }
        weight *= likelihood;
        if (weight == 0.0)
            return 0.0;
    }
    return weight;
}

/* ---- building a sampler from Python ------------------------------------------------------ */

static const char CAPSULE[] = "pepper_tutor._sampling_native.Sampler";

static void sampler_free(PyObject *capsule) {
    Sampler *s = PyCapsule_GetPointer(capsule, CAPSULE);
    if (s != NULL) {
        free(s->layouts);
        free(s->cumulative);
        free(s);
    }
}

static int int_at(PyObject *seq, Py_ssize_t i, long lo, long hi, long *out) {
    PyObject *item = PySequence_GetItem(seq, i);
    if (item == NULL)
        return -1;
    long v = PyLong_AsLong(item);
    Py_DECREF(item);
    if (v == -1 && PyErr_Occurred())
        return -1;
    if (v < lo || v > hi) {
        PyErr_Format(PyExc_ValueError, "%ld is out of range %ld..%ld", v, lo, hi);
        return -1;
    }
    *out = v;
    return 0;
}

static int double_at(PyObject *seq, Py_ssize_t i, double *out) {
    PyObject *item = PySequence_GetItem(seq, i);
    if (item == NULL)
        return -1;
    *out = PyFloat_AsDouble(item);
    Py_DECREF(item);
    return (*out == -1.0 && PyErr_Occurred()) ? -1 : 0;
}

static Py_ssize_t length_at_most(PyObject *seq, Py_ssize_t most, const char *what) {
    Py_ssize_t n = PySequence_Length(seq);
    if (n < 0)
        return -1;
    if (n > most) {
        PyErr_Format(PyExc_ValueError, "more %s than %zd", what, most);
        return -1;
    }
    return n;
}

/* sampler(counts, group_of, n_groups, classes, layouts, cumulative, terms, suits, ranks,
 *         has_exchange, partner)
 * classes: a list of lists of cards; layouts: a list of tuples (per class) of tuples (per
 * group) of counts; cumulative: the layouts' cumulative weights (each below 2**64); terms:
 * None (every deal kept) or a list of (bucket, played, low, top, best, declared, trump,
 * alone); suits, ranks: five lists of 24, under the rules' code for trumps 0-4. */
static PyObject *make_sampler(PyObject *self, PyObject *args) {
    PyObject *counts, *group_of, *classes, *layouts, *cumulative, *terms, *suits, *ranks;
    int n_groups, has_exchange, partner;
    if (!PyArg_ParseTuple(args, "OOiOOOOOOpp", &counts, &group_of, &n_groups, &classes,
                          &layouts, &cumulative, &terms, &suits, &ranks, &has_exchange,
                          &partner))
        return NULL;
    Sampler *s = calloc(1, sizeof(Sampler));
    if (s == NULL)
        return PyErr_NoMemory();
    PyObject *capsule = PyCapsule_New(s, CAPSULE, sampler_free);
    if (capsule == NULL) {
        free(s);
        return NULL;
    }
    long v;
    Py_ssize_t n;
    if (n_groups < 1 || n_groups > MAX_BUCKETS) {
        PyErr_SetString(PyExc_ValueError, "1 to 8 groups");
        goto fail;
    }
    s->n_groups = n_groups;
    s->has_exchange = has_exchange;
    s->partner = partner;
    if ((n = length_at_most(counts, MAX_BUCKETS, "buckets")) < 0)
        goto fail;
    s->n_buckets = (int)n;
    int room[MAX_BUCKETS] = {0};
    for (Py_ssize_t b = 0; b < n; b++) {
        if (int_at(counts, b, 0, MAX_CARDS, &v) < 0)
            goto fail;
        s->counts[b] = (int)v;
        if (int_at(group_of, b, 0, n_groups - 1, &v) < 0)
            goto fail;
        s->group_of[b] = (int)v;
        room[v] += s->counts[b];
    }
    if ((n = length_at_most(classes, 1 << MAX_BUCKETS, "classes")) < 0)
        goto fail;
    s->n_classes = (int)n;
    int total = 0;
    for (Py_ssize_t c = 0; c < n; c++) {
        PyObject *cards = PySequence_GetItem(classes, c);
        if (cards == NULL)
            goto fail;
        Py_ssize_t len = PySequence_Length(cards);
        if (len < 0 || total + len > MAX_CARDS) {
            Py_DECREF(cards);
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "more than 24 cards");
            goto fail;
        }
        s->class_start[c] = total;
        s->class_len[c] = (int)len;
        for (Py_ssize_t i = 0; i < len; i++) {
            if (int_at(cards, i, 0, MAX_CARDS - 1, &v) < 0) {
                Py_DECREF(cards);
                goto fail;
            }
            s->class_cards[total++] = (int)v;
        }
        Py_DECREF(cards);
    }
    if ((n = PySequence_Length(layouts)) < 0)
        goto fail;
    if (n < 1 || PySequence_Length(cumulative) != n) {
        PyErr_SetString(PyExc_ValueError, "as many cumulative weights as layouts, at least one");
        goto fail;
    }
    s->n_layouts = (int)n;
    s->layouts = calloc((size_t)n * s->n_classes * n_groups + 1, sizeof(int));
    s->cumulative = calloc((size_t)n, sizeof(uint64_t));
    if (s->layouts == NULL || s->cumulative == NULL) {
        PyErr_NoMemory();
        goto fail;
    }
    for (Py_ssize_t l = 0; l < n; l++) {
        PyObject *layout = PySequence_GetItem(layouts, l);
        if (layout == NULL)
            goto fail;
        int sums[MAX_BUCKETS] = {0};
        for (int c = 0; c < s->n_classes; c++) {
            PyObject *parts = PySequence_GetItem(layout, c);
            if (parts == NULL || PySequence_Length(parts) != n_groups) {
                Py_XDECREF(parts);
                Py_DECREF(layout);
                if (!PyErr_Occurred())
                    PyErr_SetString(PyExc_ValueError, "a layout's parts are one per group");
                goto fail;
            }
            int placed = 0;
            for (int g = 0; g < n_groups; g++) {
                if (int_at(parts, g, 0, MAX_CARDS, &v) < 0) {
                    Py_DECREF(parts);
                    Py_DECREF(layout);
                    goto fail;
                }
                s->layouts[((size_t)l * s->n_classes + c) * n_groups + g] = (int)v;
                sums[g] += (int)v;
                placed += (int)v;
            }
            Py_DECREF(parts);
            if (placed != s->class_len[c]) {
                Py_DECREF(layout);
                PyErr_SetString(PyExc_ValueError, "a layout places each class's cards");
                goto fail;
            }
        }
        Py_DECREF(layout);
        for (int g = 0; g < n_groups; g++)
            if (sums[g] != room[g]) {
                PyErr_SetString(PyExc_ValueError, "a layout fills each group's buckets");
                goto fail;
            }
        PyObject *w = PySequence_GetItem(cumulative, l);
        if (w == NULL)
            goto fail;
        unsigned long long cw = PyLong_AsUnsignedLongLong(w);
        Py_DECREF(w);
        if (cw == (unsigned long long)-1 && PyErr_Occurred())
            goto fail;
        if (cw == 0 || (l > 0 && cw < s->cumulative[l - 1])) {
            PyErr_SetString(PyExc_ValueError, "cumulative weights rise from above 0");
            goto fail;
        }
        s->cumulative[l] = cw;
    }
    for (int t = 0; t < 5; t++) {
        PyObject *su = PySequence_GetItem(suits, t), *ra = PySequence_GetItem(ranks, t);
        int bad = su == NULL || ra == NULL;
        for (int c = 0; !bad && c < MAX_CARDS; c++) {
            long a = 0, b = 0;
            bad = int_at(su, c, 0, 4, &a) < 0 || int_at(ra, c, 0, 6, &b) < 0;
            s->suits[t][c] = (int8_t)a;
            s->ranks[t][c] = (int8_t)b;
        }
        Py_XDECREF(su);
        Py_XDECREF(ra);
        if (bad)
            goto fail;
    }
    s->accept = terms != Py_None;
    if (s->accept) {
        if ((n = length_at_most(terms, MAX_CALLS, "calls")) < 0)
            goto fail;
        s->n_terms = (int)n;
        for (Py_ssize_t t = 0; t < n; t++) {
            Term *term = &s->terms[t];
            PyObject *item = PySequence_GetItem(terms, t), *played = NULL;
            long bucket, declared, trump, alone;
            int bad = item == NULL || PySequence_Length(item) != 8
                || int_at(item, 0, 0, s->n_buckets - 1, &bucket) < 0
                || (played = PySequence_GetItem(item, 1)) == NULL
                || double_at(item, 2, &term->low) < 0 || double_at(item, 3, &term->top) < 0
                || double_at(item, 4, &term->best) < 0
                || int_at(item, 5, 0, 1, &declared) < 0 || int_at(item, 6, 0, 4, &trump) < 0
                || int_at(item, 7, -1, 1, &alone) < 0;
            if (!bad) {
                term->bucket = (int)bucket;
                term->declared = (int)declared;
                term->trump = (int)trump;
                term->alone = (int)alone;
                Py_ssize_t len = length_at_most(played, MAX_CARDS, "cards played");
                bad = len < 0;
                term->n_played = (int)len;
                for (Py_ssize_t i = 0; !bad && i < len; i++) {
                    bad = int_at(played, i, 0, MAX_CARDS - 1, &v) < 0;
                    term->played[i] = (int)v;
                }
            }
            Py_XDECREF(played);
            Py_XDECREF(item);
            if (bad) {
                if (!PyErr_Occurred())
                    PyErr_SetString(PyExc_ValueError, "a term is (bucket, played, low, top, "
                                                      "best, declared, trump, alone)");
                goto fail;
            }
        }
    }
    return capsule;
fail:
    Py_DECREF(capsule);
    return NULL;
}

static PyObject *deal_list(const Sampler *s, int deal[MAX_BUCKETS][MAX_CARDS]) {
    PyObject *out = PyList_New(s->n_buckets);
    if (out == NULL)
        return NULL;
    for (int b = 0; b < s->n_buckets; b++) {
        PyObject *cards = PyList_New(s->counts[b]);
        if (cards == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        for (int i = 0; i < s->counts[b]; i++) {
            PyObject *v = PyLong_FromLong(deal[b][i]);
            if (v == NULL) {
                Py_DECREF(cards);
                Py_DECREF(out);
                return NULL;
            }
            PyList_SET_ITEM(cards, i, v);
        }
        PyList_SET_ITEM(out, b, cards);
    }
    return out;
}

/* draw(sampler, state, drawn, samples, max_draws) -> (deal, state, drawn, forced, likely)
 * One pass of _deals's loop: the deal kept (None when forced with deals remembered), the
 * generator's state after it, the deals drawn so far in all, whether it was forced, and the
 * deals remembered (a list of (weight, deal), for Python's pick_by_weight) when forced. */
static PyObject *draw(PyObject *self, PyObject *args) {
    PyObject *capsule, *words;
    long long drawn;
    long samples, max_draws;
    if (!PyArg_ParseTuple(args, "OOLll", &capsule, &words, &drawn, &samples, &max_draws))
        return NULL;
    Sampler *s = PyCapsule_GetPointer(capsule, CAPSULE);
    if (s == NULL)
        return NULL;
    MT r;
    if (read_state(words, &r) < 0)
        return NULL;
    int deal[MAX_BUCKETS][MAX_CARDS];
    typedef struct { double weight; int cards[MAX_BUCKETS][MAX_CARDS]; } Tried;
    Tried *likely = NULL;
    size_t n_likely = 0, cap = 0;
    long tries = 0;
    int forced = 0;
    const long long budget = (long long)max_draws * samples;
    for (;;) {
        deal_one(s, &r, deal);
        drawn++;
        if (!s->accept)
            break;
        double weight = weight_of(s, deal);
        if (random_double(&r) < weight)
            break;
        tries++;
        if (weight > 0.0) {
            if (n_likely == cap) {
                size_t more = cap ? 2 * cap : 64;
                Tried *grown = realloc(likely, more * sizeof(Tried));
                if (grown == NULL) {
                    free(likely);
                    return PyErr_NoMemory();
                }
                likely = grown;
                cap = more;
            }
            likely[n_likely].weight = weight;
            memcpy(likely[n_likely].cards, deal, sizeof(deal));
            n_likely++;
        }
        if ((tries >= max_draws && n_likely) || drawn >= budget) {
            forced = 1;
            break;
        }
    }
    PyObject *kept = NULL, *tried = NULL, *state = NULL, *out = NULL;
    if (forced && n_likely) {
        kept = Py_NewRef(Py_None);
        tried = PyList_New((Py_ssize_t)n_likely);
        for (size_t i = 0; tried != NULL && i < n_likely; i++) {
            PyObject *cards = deal_list(s, likely[i].cards);
            PyObject *pair = cards ? Py_BuildValue("(dN)", likely[i].weight, cards) : NULL;
            if (pair == NULL) {
                Py_CLEAR(tried);
                break;
            }
            PyList_SET_ITEM(tried, (Py_ssize_t)i, pair);
        }
    } else {
        kept = deal_list(s, deal);
        tried = Py_NewRef(Py_None);
    }
    free(likely);
    state = write_state(&r);
    if (kept != NULL && tried != NULL && state != NULL)
        out = Py_BuildValue("(OOLOO)", kept, state, drawn, forced ? Py_True : Py_False, tried);
    Py_XDECREF(kept);
    Py_XDECREF(tried);
    Py_XDECREF(state);
    return out;
}

/* ---- what the caller checks at import ----------------------------------------------------- */

/* run(state, what, n, count) -> (numbers, state): count draws of one kind, to set beside the
 * interpreter's own: what 0 random(), 1 randrange(n) (n below 2**64), 2 getrandbits(n)
 * (n 1-64), 3 a shuffle of list(range(n)) (n up to 24, the list back as the number). */
static PyObject *run(PyObject *self, PyObject *args) {
    PyObject *words;
    int what, count;
    unsigned long long n;
    if (!PyArg_ParseTuple(args, "OiKi", &words, &what, &n, &count))
        return NULL;
    if (what < 0 || what > 3 || (what == 1 && n < 1) || (what == 2 && (n < 1 || n > 64))
        || (what == 3 && n > MAX_CARDS)) {
        PyErr_SetString(PyExc_ValueError, "run: a kind and size it can draw");
        return NULL;
    }
    MT r;
    if (read_state(words, &r) < 0)
        return NULL;
    PyObject *out = PyList_New(count);
    for (int i = 0; out != NULL && i < count; i++) {
        PyObject *v = NULL;
        if (what == 0) {
            v = PyFloat_FromDouble(random_double(&r));
        } else if (what == 1) {
            v = PyLong_FromUnsignedLongLong(randbelow(&r, n));
        } else if (what == 2) {
            v = PyLong_FromUnsignedLongLong(getrandbits(&r, (int)n));
        } else {
            int x[MAX_CARDS];
            for (int k = 0; k < (int)n; k++)
                x[k] = k;
            shuffle(&r, x, (int)n);
            v = PyList_New((Py_ssize_t)n);
            for (int k = 0; v != NULL && k < (int)n; k++)
                PyList_SET_ITEM(v, k, PyLong_FromLong(x[k]));
        }
        if (v == NULL) {
            Py_CLEAR(out);
            break;
        }
        PyList_SET_ITEM(out, i, v);
    }
    if (out == NULL)
        return NULL;
    PyObject *state = write_state(&r);
    if (state == NULL) {
        Py_DECREF(out);
        return NULL;
    }
    return Py_BuildValue("(NN)", out, state);
}

/* weigh(sampler, deal) -> the weight of one deal (the tests set it beside _CallsAccept). */
static PyObject *weigh(PyObject *self, PyObject *args) {
    PyObject *capsule, *cards;
    if (!PyArg_ParseTuple(args, "OO", &capsule, &cards))
        return NULL;
    Sampler *s = PyCapsule_GetPointer(capsule, CAPSULE);
    if (s == NULL)
        return NULL;
    if (!s->accept) {
        PyErr_SetString(PyExc_ValueError, "this sampler reads no calls");
        return NULL;
    }
    int deal[MAX_BUCKETS][MAX_CARDS];
    if (PySequence_Length(cards) != s->n_buckets) {
        PyErr_SetString(PyExc_ValueError, "one list of cards per bucket");
        return NULL;
    }
    for (int b = 0; b < s->n_buckets; b++) {
        PyObject *bucket = PySequence_GetItem(cards, b);
        if (bucket == NULL)
            return NULL;
        int bad = PySequence_Length(bucket) != s->counts[b];
        for (int i = 0; !bad && i < s->counts[b]; i++) {
            long v = 0;
            bad = int_at(bucket, i, 0, MAX_CARDS - 1, &v) < 0;
            deal[b][i] = (int)v;
        }
        Py_DECREF(bucket);
        if (bad) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "a bucket holds its count of cards");
            return NULL;
        }
    }
    return PyFloat_FromDouble(weight_of(s, deal));
}

/* erf(x) as this build computes it (the caller checks it is math.erf's). */
static PyObject *c_erf(PyObject *self, PyObject *arg) {
    double x = PyFloat_AsDouble(arg);
    if (x == -1.0 && PyErr_Occurred())
        return NULL;
    return PyFloat_FromDouble(erf(x));
}

static PyMethodDef methods[] = {
    {"sampler", make_sampler, METH_VARARGS, "A dealer and the calls it reads, for draw()."},
    {"draw", draw, METH_VARARGS, "One kept deal of _deals's loop."},
    {"weigh", weigh, METH_VARARGS, "The calls' likelihood for one deal."},
    {"run", run, METH_VARARGS, "Draws of one kind, to check against the random module."},
    {"erf", c_erf, METH_O, "The C library's erf."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "_sampling_native",
    "The auction-aware deal sampling in C (see advice/native_sampling.py).", -1, methods,
};

PyMODINIT_FUNC PyInit__sampling_native(void) {
    PyObject *m = PyModule_Create(&module_def);
    if (m == NULL)
        return NULL;
    if (PyModule_AddStringConstant(m, "SOURCE_DIGEST", SOURCE_DIGEST) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
