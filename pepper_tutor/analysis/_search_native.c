/* The double-dummy search in C: the same search as search.py, written for the machine.
 *
 * pepper_tutor/analysis/native.py builds this file into _search_native*.so with the machine's
 * C compiler and picks it before the mypyc build and the pure-Python search, but only while
 * the digest it was built with (SOURCE_DIGEST, passed by the build) matches this file and
 * the Python it reads (position.py, engine/ranking.py). search.py stays the oracle: the tests
 * check this module gives its answers on random positions of every shape.
 *
 * It mirrors search.py's private API, so solver.py switches by one choice: a _Root type
 * built from (position, table) with test(need), after(card), converge(test, lo, hi, guess),
 * legal(), groups(legal), values(best) and release(); and _STRENGTH. The search is the one
 * search.py describes (null-window fail-soft tests, MTD(f) at the root, a table of lower and
 * upper bounds at trick boundaries keyed rank-relatively, equivalent cards merged, sure
 * tricks from top trumps, the cashing bound, the same move order); what differs is the
 * machine's representation:
 *
 * - hands are 24-bit masks in a C array, and a card's suit, power and strength are bytes;
 * - the table is an open-addressing hash table of 16-byte entries, owned by a small object
 *   that the Python TranspositionTable keeps in its `native` slot, so it lives exactly as
 *   long as the Python table's context (TranspositionTable.clear drops it);
 * - the key packs, per effective suit, the owners of the cards still in play from the top
 *   down (2 bits each) and their count (3 bits), then the leader: 63 bits at most.
 *
 * Bowers are never re-derived: the tables are read at import from
 * pepper_tutor.engine.ranking (EFFECTIVE_SUIT, TRICK_POWER, TRICK_RANK).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#ifndef SOURCE_DIGEST
#define SOURCE_DIGEST ""
#endif

#define NCODES 9
#define NO_TRUMP 4

static int8_t SUIT_OF[NCODES][24];
static int8_t POWER[NCODES][4][24];
static int8_t STRENGTH[NCODES][24];
static uint32_t SUIT_MASK[NCODES][4];
static int8_t ORDER[NCODES][4][8]; /* per effective suit, cards from the highest down */
static int8_t ORDER_LEN[NCODES][4];
/* RANK_BITS[code][suit][k][byte]: the cards of byte k of a card mask (cards 8k..8k+7) that
 * are in the suit, as bits in rank order (bit i: the suit's i-th highest card). */
static uint8_t RANK_BITS[NCODES][4][3][256];

static inline int popcount(uint32_t x) { return __builtin_popcount(x); }

/* The cards of a mask in suit s, in rank order (see RANK_BITS). */
static inline uint32_t rank_bits(int code, int s, uint32_t cards) {
    return RANK_BITS[code][s][0][cards & 255] | RANK_BITS[code][s][1][cards >> 8 & 255]
           | RANK_BITS[code][s][2][cards >> 16 & 255];
}

/* The 2-bit owners (own: the owner of the suit's i-th highest card in bits 2i, 2i+1) of
 * the cards present (p, rank order), packed from the highest present card up. */
#ifdef __BMI2__
#include <immintrin.h>
static inline uint32_t owners_of(uint32_t own, uint32_t p) {
    return _pext_u32(own, _pdep_u32(p, 0x5555u) * 3u);
}
#else
static inline uint32_t owners_of(uint32_t own, uint32_t p) {
    uint32_t out = 0;
    for (int i = 0, k = 0; i < 8; i++) {
        if (p >> i & 1) out |= (own >> 2 * i & 3u) << 2 * k++;
    }
    return out;
}
#endif
static inline int low_card(uint32_t x) { return __builtin_ctz(x); }

/* ---- the table of bounds --------------------------------------------------------------- */

typedef struct {
    uint64_t key; /* 0: empty (a real key has its marker bit set) */
    int8_t lo, hi;
} Entry;

typedef struct {
    PyObject_HEAD
    Entry *slots;
    size_t mask; /* capacity - 1, a power of two */
    size_t used;
    size_t most; /* the capacity it may grow to: the TranspositionTable's max_entries */
} TableObject;

#define TABLE_START (1u << 12)
#define TABLE_MAX (1u << 22) /* 64 MB at most, whatever max_entries says */

static int table_init_slots(TableObject *t, size_t capacity) {
    Entry *slots = PyMem_Calloc(capacity, sizeof(Entry));
    if (slots == NULL) return -1;
    PyMem_Free(t->slots);
    t->slots = slots;
    t->mask = capacity - 1;
    t->used = 0;
    return 0;
}

static inline size_t slot_of(uint64_t key, size_t mask) {
    return (size_t)((key * 0x9E3779B97F4A7C15ull) >> 40) & mask;
}

static inline Entry *table_find(TableObject *t, uint64_t key) {
    size_t i = slot_of(key, t->mask);
    for (;;) {
        Entry *e = &t->slots[i];
        if (e->key == key) return e;
        if (e->key == 0) return NULL;
        i = (i + 1) & t->mask;
    }
}

static int table_grow(TableObject *t) {
    size_t old_cap = t->mask + 1;
    if (old_cap >= t->most) return table_init_slots(t, old_cap); /* full: start afresh */
    Entry *old = t->slots;
    Entry *slots = PyMem_Calloc(old_cap * 2, sizeof(Entry));
    if (slots == NULL) return table_init_slots(t, old_cap);
    t->slots = slots;
    t->mask = old_cap * 2 - 1;
    for (size_t j = 0; j < old_cap; j++) {
        if (old[j].key) {
            size_t i = slot_of(old[j].key, t->mask);
            while (slots[i].key) i = (i + 1) & t->mask;
            slots[i] = old[j];
        }
    }
    PyMem_Free(old);
    return 0;
}

/* The entry for key, made if missing (with the bounds that hold for any position: 0 and
 * the tricks left). NULL only if memory ran out, when the bound is simply not kept. */
static inline Entry *table_slot(TableObject *t, uint64_t key, int left) {
    size_t i = slot_of(key, t->mask);
    for (;;) {
        Entry *e = &t->slots[i];
        if (e->key == key) return e;
        if (e->key == 0) break;
        i = (i + 1) & t->mask;
    }
    if ((t->used + 1) * 4 > (t->mask + 1) * 3) {
        if (table_grow(t) < 0) return NULL;
        i = slot_of(key, t->mask);
        while (t->slots[i].key) i = (i + 1) & t->mask;
    }
    Entry *e = &t->slots[i];
    e->key = key;
    e->lo = 0;
    e->hi = (int8_t)left;
    t->used++;
    return e;
}

static void store_lower(TableObject *t, uint64_t key, int left, int v) {
    Entry *e = table_slot(t, key, left);
    if (e != NULL && v > e->lo) e->lo = (int8_t)v;
}

static void store_upper(TableObject *t, uint64_t key, int left, int v) {
    Entry *e = table_slot(t, key, left);
    if (e != NULL && v < e->hi) e->hi = (int8_t)v;
}

/* A table holding up to max_entries entries (as the Python table's dicts do) before it
 * starts afresh: the capacity that keeps that many under three quarters full. */
static PyObject *table_make(PyTypeObject *type, long max_entries) {
    TableObject *t = (TableObject *)type->tp_alloc(type, 0);
    if (t == NULL) return NULL;
    t->slots = NULL;
    t->most = TABLE_START;
    while (t->most < TABLE_MAX && (t->most / 4) * 3 < (size_t)(max_entries > 0 ? max_entries : 0))
        t->most *= 2;
    if (table_init_slots(t, TABLE_START) < 0) {
        Py_DECREF(t);
        return PyErr_NoMemory();
    }
    return (PyObject *)t;
}

static void Table_dealloc(TableObject *t) {
    PyMem_Free(t->slots);
    Py_TYPE(t)->tp_free((PyObject *)t);
}

static Py_ssize_t Table_len(TableObject *t) { return (Py_ssize_t)t->used; }

static PySequenceMethods Table_as_sequence = {.sq_length = (lenfunc)Table_len};

static PyTypeObject TableType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "pepper_tutor.analysis._search_native.Table",
    .tp_doc = "The native search's bounds, kept in a TranspositionTable's native slot.",
    .tp_basicsize = sizeof(TableObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_dealloc = (destructor)Table_dealloc,
    .tp_as_sequence = &Table_as_sequence,
};

/* ---- the search ------------------------------------------------------------------------ */

typedef struct {
    uint32_t hands[4];
    int8_t owner[24];
    uint32_t own[4]; /* per suit, the owners of its cards in rank order (see owners_of) */
    int nxt[4];
    int ours[4];
    int size;
    int code, trump;
    uint32_t trump_mask;
    const int8_t *suit_of, *strength;
    const uint32_t *masks;
    TableObject *table;
    uint64_t nodes;
} Search;

static int follow(Search *S, int seat, int pos, int led, int win_power, int win_seat,
                  uint32_t trick_mask, int need);

/* The highest card of each run of cand in suit, from the top down, appended to out. A run
 * ends where a card still in play (present) is not ours. Returns the new count. */
static inline int runs(const Search *S, int suit, uint32_t cand, uint32_t present,
                       int8_t *out, int n) {
    const int8_t *order = ORDER[S->code][suit];
#ifdef __BMI2__
    /* In rank order, among the cards present: a run starts at each of ours whose next
     * higher present card is not ours. */
    uint32_t p = rank_bits(S->code, suit, present);
    uint32_t mine = _pext_u32(rank_bits(S->code, suit, cand), p);
    uint32_t starts = _pdep_u32(mine & ~(mine << 1), p);
    while (starts) {
        out[n++] = order[__builtin_ctz(starts)];
        starts &= starts - 1;
    }
    return n;
#else
    int len = ORDER_LEN[S->code][suit];
    int prev = 0;
    for (int i = 0; i < len; i++) {
        int c = order[i];
        if (present >> c & 1) {
            if (cand >> c & 1) {
                if (!prev) out[n++] = (int8_t)c;
                prev = 1;
            } else {
                prev = 0;
            }
        }
    }
    return n;
#endif
}

/* Sure tricks from top trumps: the side (1: ours) holding the highest trump still in play,
 * and the most of the trumps above every trump of the other side that one seat holds. */
static inline void sure_tricks(const Search *S, uint32_t rem, int *top, int *sure) {
    *top = -1;
    *sure = 0;
#ifdef __BMI2__
    int code = S->code, t = S->trump;
    uint32_t p = rank_bits(code, t, rem);
    if (!p) return;
    uint32_t ours = 0;
    for (int s = 0; s < 4; s++)
        if (S->ours[s]) ours |= S->hands[s];
    uint32_t x = _pext_u32(rank_bits(code, t, ours), p); /* bit i: the i-th highest is ours */
    *top = (int)(x & 1);
    uint32_t same = (*top ? x : ~x) & ((1u << popcount(p)) - 1);
    int run = __builtin_ctz(~same); /* the top run held by one side */
    uint32_t run_cards = _pdep_u32((1u << run) - 1, p);
    for (int s = 0; s < 4; s++) {
        if (S->ours[s] == *top) {
            int k = popcount(rank_bits(code, t, S->hands[s]) & run_cards);
            if (k > *sure) *sure = k;
        }
    }
#else
    const int8_t *order = ORDER[S->code][S->trump];
    int len = ORDER_LEN[S->code][S->trump];
    int count[4] = {0, 0, 0, 0};
    for (int i = 0; i < len; i++) {
        int c = order[i];
        if (rem >> c & 1) {
            int o = S->owner[c];
            if (*top < 0) *top = S->ours[o];
            else if (S->ours[o] != *top) break;
            if (++count[o] > *sure) *sure = count[o];
        }
    }
#endif
}

/* How many of the highest cards of suit still in play are mine, in a row. */
static inline int top_run(const Search *S, int suit, uint32_t mine, uint32_t present) {
#ifdef __BMI2__
    uint32_t p = rank_bits(S->code, suit, present);
    return __builtin_ctz(~_pext_u32(rank_bits(S->code, suit, mine), p));
#else
    const int8_t *order = ORDER[S->code][suit];
    int len = ORDER_LEN[S->code][suit], run = 0;
    for (int i = 0; i < len; i++) {
        int c = order[i];
        if (present >> c & 1) {
            if (!(mine >> c & 1)) break;
            run++;
        }
    }
    return run;
#endif
}

static inline uint64_t make_key(const Search *S, uint32_t rem, int seat) {
    uint64_t key = 1; /* the marker bit: no real key is 0 */
    for (int s = 0; s < 4; s++) {
        uint32_t present = rank_bits(S->code, s, rem);
        int count = popcount(present);
        key = key << (2 * count) | owners_of(S->own[s], present);
        key = key << 3 | (uint64_t)count;
    }
    return key << 2 | (uint64_t)seat;
}

/* Sort cards by key, descending when desc (insertion sort: six cards at most). */
static inline void sort_by(int8_t *cards, int n, int *keys, int desc) {
    for (int i = 1; i < n; i++) {
        int8_t c = cards[i];
        int k = keys[i], j = i - 1;
        while (j >= 0 && (desc ? keys[j] < k : keys[j] > k)) {
            cards[j + 1] = cards[j];
            keys[j + 1] = keys[j];
            j--;
        }
        cards[j + 1] = c;
        keys[j + 1] = k;
    }
}

static int lead(Search *S, int seat, int need) {
    S->nodes++;
    uint32_t hand = S->hands[seat];
    int left = popcount(hand);
    if (left == 1) {
        /* The last trick plays itself (every seat has one card): no table needed. */
        const int8_t *row = POWER[S->code][S->suit_of[low_card(hand)]];
        int w = seat, best = -1, s = seat;
        for (int i = 0; i < S->size; i++) {
            int p = row[low_card(S->hands[s])];
            if (p > best) {
                best = p;
                w = s;
            }
            s = S->nxt[s];
        }
        return S->ours[w];
    }
    uint32_t rem = S->hands[0] | S->hands[1] | S->hands[2] | S->hands[3];
    uint64_t key = make_key(S, rem, seat);
    Entry *e = table_find(S->table, key);
    if (e != NULL) {
        if (e->lo >= need) return e->lo;
        if (e->hi < need) return e->hi;
    }
    if (S->trump_mask) {
        /* Sure tricks: a trump above every trump of the other side wins its trick for its
         * side whenever it is played, one a trick per seat. */
        int top, sure;
        sure_tricks(S, rem, &top, &sure);
        if (sure) {
            if (top) {
                if (sure >= need) {
                    store_lower(S->table, key, left, sure);
                    return sure;
                }
            } else if (left - sure < need) {
                store_upper(S->table, key, left, left - sure);
                return left - sure;
            }
        }
    }
    if (!((rem ^ hand) & S->trump_mask)) {
        /* No one else holds a trump: the leader cashes every trump and the top run of each
         * plain suit, keeping the lead throughout. */
        int cash = popcount(hand & S->trump_mask);
        for (int s = 0; s < 4; s++) {
            if (s != S->trump && (hand & S->masks[s]))
                cash += top_run(S, s, hand & S->masks[s], rem);
        }
        if (S->ours[seat]) {
            if (cash >= need) {
                store_lower(S->table, key, left, cash);
                return cash;
            }
        } else if (left - cash < need) {
            store_upper(S->table, key, left, left - cash);
            return left - cash;
        }
    }
    int8_t reps[8];
    int keys[8];
    int n = 0;
    for (int s = 0; s < 4; s++) {
        if (hand & S->masks[s]) n = runs(S, s, hand & S->masks[s], rem, reps, n);
    }
    for (int i = 0; i < n; i++) keys[i] = S->strength[reps[i]];
    sort_by(reps, n, keys, 1); /* strong leads first */
    int after = S->nxt[seat];
    if (S->ours[seat]) {
        int g = 0;
        for (int i = 0; i < n; i++) {
            int c = reps[i], led = S->suit_of[c];
            S->hands[seat] = hand ^ (1u << c);
            int v = follow(S, after, 1, led, POWER[S->code][led][c], seat, 1u << c, need);
            if (v >= need) {
                S->hands[seat] = hand;
                store_lower(S->table, key, left, v);
                return v;
            }
            if (v > g) g = v;
        }
        S->hands[seat] = hand;
        store_upper(S->table, key, left, g);
        return g;
    }
    int g = left;
    for (int i = 0; i < n; i++) {
        int c = reps[i], led = S->suit_of[c];
        S->hands[seat] = hand ^ (1u << c);
        int v = follow(S, after, 1, led, POWER[S->code][led][c], seat, 1u << c, need);
        if (v < need) {
            S->hands[seat] = hand;
            store_upper(S->table, key, left, v);
            return v;
        }
        if (v < g) g = v;
    }
    S->hands[seat] = hand;
    store_lower(S->table, key, left, g);
    return g;
}

static int follow(Search *S, int seat, int pos, int led, int win_power, int win_seat,
                  uint32_t trick_mask, int need) {
    S->nodes++;
    uint32_t hand = S->hands[seat];
    const int8_t *row = POWER[S->code][led];
    uint32_t cand = hand & S->masks[led];
    uint32_t present = S->hands[0] | S->hands[1] | S->hands[2] | S->hands[3] | trick_mask;
    int8_t reps[8];
    int n = 0;
    int partner_wins = S->ours[win_seat] == S->ours[seat];
    if (cand) {
        int8_t all[8];
        int m = runs(S, led, cand, present & S->masks[led], all, 0);
        /* One suit, highest first. Partner winning: play low. Else the cheapest card that
         * wins, then the lowest of the rest (the cards that win are a prefix). */
        if (partner_wins || m == 1) {
            for (int i = m - 1; i >= 0; i--) reps[n++] = all[i];
        } else {
            int k = 0;
            while (k < m && row[all[k]] > win_power) k++;
            for (int i = k - 1; i >= 0; i--) reps[n++] = all[i];
            for (int i = m - 1; i >= k; i--) reps[n++] = all[i];
        }
    } else {
        int keys[8];
        for (int s = 0; s < 4; s++) {
            if (hand & S->masks[s]) n = runs(S, s, hand & S->masks[s], present, reps, n);
        }
        if (n > 1) {
            for (int i = 0; i < n; i++) {
                int c = reps[i];
                /* partner winning: the weakest first; else a ruff that wins, cheapest
                 * first, then the lowest discard */
                keys[i] = partner_wins ? S->strength[c]
                          : row[c] > win_power ? row[c] - 40 : S->strength[c];
            }
            sort_by(reps, n, keys, 0);
        }
    }
    int maximising = S->ours[seat];
    int g = maximising ? -1 : 99;
    if (pos + 1 == S->size) {
        /* Last to play: each card ends the trick. Children whose answer the trick count
         * alone settles are not searched at all. */
        int rest = popcount(hand) - 1;
        for (int i = 0; i < n; i++) {
            int c = reps[i], v;
            int w = row[c] > win_power ? seat : win_seat;
            int won = S->ours[w], still = need - won;
            if (still <= 0) {
                v = won;
            } else if (still > rest) {
                v = won + rest;
            } else {
                S->hands[seat] = hand ^ (1u << c);
                v = won + lead(S, w, still);
                S->hands[seat] = hand;
            }
            if (maximising) {
                if (v >= need) return v;
                if (v > g) g = v;
            } else {
                if (v < need) return v;
                if (v < g) g = v;
            }
        }
        return g;
    }
    int after = S->nxt[seat];
    for (int i = 0; i < n; i++) {
        int c = reps[i], v, p = row[c];
        uint32_t b = 1u << c;
        S->hands[seat] = hand ^ b;
        if (p > win_power)
            v = follow(S, after, pos + 1, led, p, seat, trick_mask | b, need);
        else
            v = follow(S, after, pos + 1, led, win_power, win_seat, trick_mask | b, need);
        if (maximising) {
            if (v >= need) {
                S->hands[seat] = hand;
                return v;
            }
            if (v > g) g = v;
        } else {
            if (v < need) {
                S->hands[seat] = hand;
                return v;
            }
            if (v < g) g = v;
        }
    }
    S->hands[seat] = hand;
    return g;
}

static int search(Search *S, int seat, int pos, int led, int win_power, int win_seat,
                  uint32_t trick_mask, int need) {
    if (pos) return follow(S, seat, pos, led, win_power, win_seat, trick_mask, need);
    if (need <= 0) return 0;
    int left = popcount(S->hands[seat]);
    if (need > left) return left;
    return lead(S, seat, need);
}

/* ---- the root -------------------------------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    Search S;
    PyObject *position;
    PyObject *ours_list;
    int seat, pos, led, win_power, win_seat, left;
    uint32_t trick_mask;
    int active[4];
} RootObject;

static PyTypeObject RootType;
static PyTypeObject AfterType;

static int int_attr(PyObject *obj, const char *name, long *out) {
    PyObject *v = PyObject_GetAttrString(obj, name);
    if (v == NULL) return -1;
    *out = PyLong_AsLong(v);
    Py_DECREF(v);
    return (*out == -1 && PyErr_Occurred()) ? -1 : 0;
}

/* The table's native part, made when missing: kept in the TranspositionTable's slot. */
static TableObject *native_table(PyObject *table) {
    PyObject *t = PyObject_GetAttrString(table, "native");
    if (t == NULL) {
        if (!PyErr_ExceptionMatches(PyExc_AttributeError)) return NULL;
        PyErr_Clear();
    } else if (Py_IS_TYPE(t, &TableType)) {
        return (TableObject *)t;
    } else {
        Py_DECREF(t);
    }
    long most;
    if (int_attr(table, "max_entries", &most) < 0) return NULL;
    t = table_make(&TableType, most);
    if (t == NULL) return NULL;
    if (PyObject_SetAttrString(table, "native", t) < 0) {
        Py_DECREF(t);
        return NULL;
    }
    return (TableObject *)t;
}

static int Root_init(RootObject *self, PyObject *args, PyObject *kwds) {
    PyObject *position, *table;
    static char *kwlist[] = {"position", "table", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OO", kwlist, &position, &table)) return -1;
    PyObject *r = PyObject_CallMethod(table, "prepare", "O", position);
    if (r == NULL) return -1;
    Py_DECREF(r);
    Search *S = &self->S;
    Py_CLEAR(S->table);
    memset(S, 0, sizeof(*S));
    Py_CLEAR(self->position);
    Py_CLEAR(self->ours_list);
    Py_INCREF(position);
    self->position = position;
    TableObject *t = native_table(table);
    if (t == NULL) return -1;
    S->table = t;

    long players, to_play, trump, code, out = -1;
    if (int_attr(position, "players", &players) < 0 || int_attr(position, "to_play", &to_play) < 0
        || int_attr(position, "trump", &trump) < 0 || int_attr(position, "code", &code) < 0)
        return -1;
    PyObject *o = PyObject_GetAttrString(position, "out");
    if (o == NULL) return -1;
    if (o != Py_None) out = PyLong_AsLong(o);
    Py_DECREF(o);
    if (code < 0 || code >= NCODES || trump < 0 || trump > NO_TRUMP || players < 2
        || players > 4) {
        PyErr_SetString(PyExc_ValueError, "not a position the native search knows");
        return -1;
    }
    S->code = (int)code;
    S->trump = (int)trump;
    S->suit_of = SUIT_OF[code];
    S->strength = STRENGTH[code];
    S->masks = SUIT_MASK[code];
    S->trump_mask = trump == NO_TRUMP ? 0 : SUIT_MASK[code][trump];
    S->size = 0;
    for (int s = 0; s < players; s++)
        if (s != out) self->active[S->size++] = s;
    for (int i = 0; i < S->size; i++) S->nxt[self->active[i]] = self->active[(i + 1) % S->size];

    PyObject *side = PyObject_GetAttrString(position, "side");
    if (side == NULL) return -1;
    self->ours_list = PyList_New(4);
    if (self->ours_list == NULL) {
        Py_DECREF(side);
        return -1;
    }
    for (int s = 0; s < 4; s++) {
        PyObject *k = PyLong_FromLong(s);
        int in = k == NULL ? -1 : PySet_Contains(side, k);
        Py_XDECREF(k);
        if (in < 0) {
            Py_DECREF(side);
            return -1;
        }
        S->ours[s] = in;
        PyList_SET_ITEM(self->ours_list, s, PyLong_FromLong(in));
    }
    Py_DECREF(side);

    memset(S->owner, 0, sizeof(S->owner));
    PyObject *hands = PyObject_GetAttrString(position, "hands");
    if (hands == NULL) return -1;
    PyObject *seq = PySequence_Fast(hands, "hands must be a sequence");
    Py_DECREF(hands);
    if (seq == NULL) return -1;
    for (Py_ssize_t s = 0; s < PySequence_Fast_GET_SIZE(seq) && s < 4; s++) {
        PyObject *hand = PySequence_Fast(PySequence_Fast_GET_ITEM(seq, s), "a hand");
        if (hand == NULL) {
            Py_DECREF(seq);
            return -1;
        }
        for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(hand); i++) {
            long c = PyLong_AsLong(PySequence_Fast_GET_ITEM(hand, i));
            if (c < 0 || c >= 24) {
                if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a card is not 0..23");
                Py_DECREF(hand);
                Py_DECREF(seq);
                return -1;
            }
            S->hands[s] |= 1u << c;
            S->owner[c] = (int8_t)s;
        }
        Py_DECREF(hand);
    }
    Py_DECREF(seq);

    for (int s = 0; s < 4; s++) {
        S->own[s] = 0;
        for (int i = 0; i < ORDER_LEN[code][s]; i++)
            S->own[s] |= (uint32_t)S->owner[ORDER[code][s][i]] << 2 * i;
    }
    self->seat = (int)to_play;
    self->left = popcount(S->hands[to_play]);
    self->trick_mask = 0;
    self->led = 0;
    self->win_power = -1;
    self->win_seat = 0;
    PyObject *trick = PyObject_GetAttrString(position, "trick");
    if (trick == NULL) return -1;
    seq = PySequence_Fast(trick, "trick must be a sequence");
    Py_DECREF(trick);
    if (seq == NULL) return -1;
    self->pos = (int)PySequence_Fast_GET_SIZE(seq);
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(seq); i++) {
        long s, c;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(seq, i), "ll", &s, &c)) {
            Py_DECREF(seq);
            return -1;
        }
        if (c < 0 || c >= 24 || s < 0 || s >= 4) {
            Py_DECREF(seq);
            PyErr_SetString(PyExc_ValueError, "a trick's card or seat is out of range");
            return -1;
        }
        if (i == 0) self->led = SUIT_OF[code][c];
        self->trick_mask |= 1u << c;
        int p = POWER[code][self->led][c];
        if (p > self->win_power) {
            self->win_power = p;
            self->win_seat = (int)s;
        }
    }
    Py_DECREF(seq);
    return 0;
}

static void Root_dealloc(RootObject *self) {
    Py_XDECREF(self->position);
    Py_XDECREF(self->ours_list);
    Py_XDECREF(self->S.table);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *Root_new(PyTypeObject *type, PyObject *args, PyObject *kwds) {
    RootObject *self = (RootObject *)type->tp_alloc(type, 0);
    return (PyObject *)self; /* tp_alloc zeroes it: every pointer starts NULL */
}

static int root_test(RootObject *self, int need) {
    return search(&self->S, self->seat, self->pos, self->led, self->win_power, self->win_seat,
                  self->trick_mask, need);
}

/* test(need) after the player to move plays card. */
static int root_test_after(RootObject *self, int card, int need) {
    Search *S = &self->S;
    int seat = self->seat, code = S->code, led, w_power, w_seat, v;
    if (self->pos == 0) {
        led = SUIT_OF[code][card];
        w_power = POWER[code][led][card];
        w_seat = seat;
    } else {
        led = self->led;
        int p = POWER[code][led][card];
        w_power = p > self->win_power ? p : self->win_power;
        w_seat = p > self->win_power ? seat : self->win_seat;
    }
    uint32_t bit = 1u << card;
    S->hands[seat] ^= bit;
    if (self->pos + 1 == S->size) {
        int won = S->ours[w_seat];
        v = won + search(S, w_seat, 0, 0, -1, 0, 0, need - won);
    } else {
        v = search(S, S->nxt[seat], self->pos + 1, led, w_power, w_seat,
                   self->trick_mask | bit, need);
    }
    S->hands[seat] ^= bit;
    return v;
}

/* MTD(f): the exact value in [lo, hi] by null-window tests; card < 0 tests the root. */
static int root_converge(RootObject *self, int card, int lo, int hi, int guess) {
    int g = guess;
    while (lo < hi) {
        int need = g == lo ? g + 1 : g;
        g = card < 0 ? root_test(self, need) : root_test_after(self, card, need);
        if (g >= need) lo = g;
        else hi = g;
    }
    return lo;
}

static PyObject *Root_test(RootObject *self, PyObject *arg) {
    long need = PyLong_AsLong(arg);
    if (need == -1 && PyErr_Occurred()) return NULL;
    return PyLong_FromLong(root_test(self, (int)need));
}

typedef struct {
    PyObject_HEAD
    RootObject *root;
    int card;
} AfterObject;

static PyObject *Root_after(RootObject *self, PyObject *arg) {
    long card = PyLong_AsLong(arg);
    if (card == -1 && PyErr_Occurred()) return NULL;
    if (card < 0 || card >= 24 || !(self->S.hands[self->seat] >> card & 1)) {
        PyErr_Format(PyExc_ValueError, "card %ld is not in the hand of the player to move",
                     card);
        return NULL;
    }
    AfterObject *a = PyObject_New(AfterObject, &AfterType);
    if (a == NULL) return NULL;
    Py_INCREF(self);
    a->root = self;
    a->card = (int)card;
    return (PyObject *)a;
}

static void After_dealloc(AfterObject *a) {
    Py_XDECREF(a->root);
    PyObject_Free(a);
}

static PyObject *After_call(AfterObject *a, PyObject *args, PyObject *kwds) {
    long need;
    if (!PyArg_ParseTuple(args, "l", &need)) return NULL;
    return PyLong_FromLong(root_test_after(a->root, a->card, (int)need));
}

static PyTypeObject AfterType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "pepper_tutor.analysis._search_native.After",
    .tp_doc = "The search after the player to move plays one card: call it with need.",
    .tp_basicsize = sizeof(AfterObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_dealloc = (destructor)After_dealloc,
    .tp_call = (ternaryfunc)After_call,
};

static PyObject *Root_converge(PyObject *unused, PyObject *args) {
    PyObject *test;
    int lo, hi, guess;
    if (!PyArg_ParseTuple(args, "Oiii", &test, &lo, &hi, &guess)) return NULL;
    /* The native tests themselves are run without a trip through Python. */
    if (Py_IS_TYPE(test, &AfterType)) {
        AfterObject *a = (AfterObject *)test;
        return PyLong_FromLong(root_converge(a->root, a->card, lo, hi, guess));
    }
    if (PyCFunction_Check(test) && Py_IS_TYPE(PyCFunction_GET_SELF(test), &RootType)
        && strcmp(((PyCFunctionObject *)test)->m_ml->ml_name, "test") == 0) {
        RootObject *root = (RootObject *)PyCFunction_GET_SELF(test);
        return PyLong_FromLong(root_converge(root, -1, lo, hi, guess));
    }
    int g = guess;
    while (lo < hi) {
        int need = g == lo ? g + 1 : g;
        PyObject *r = PyObject_CallFunction(test, "i", need);
        if (r == NULL) return NULL;
        g = (int)PyLong_AsLong(r);
        Py_DECREF(r);
        if (g == -1 && PyErr_Occurred()) return NULL;
        if (g >= need) lo = g;
        else hi = g;
    }
    return PyLong_FromLong(lo);
}

static uint32_t root_legal(RootObject *self) {
    uint32_t hand = self->S.hands[self->seat];
    if (self->pos) {
        uint32_t follow_suit = hand & SUIT_MASK[self->S.code][self->led];
        if (follow_suit) hand = follow_suit;
    }
    return hand;
}

static PyObject *cards_list(uint32_t mask) {
    PyObject *out = PyList_New(0);
    if (out == NULL) return NULL;
    for (int c = 0; c < 24; c++) {
        if (mask >> c & 1) {
            PyObject *v = PyLong_FromLong(c);
            if (v == NULL || PyList_Append(out, v) < 0) {
                Py_XDECREF(v);
                Py_DECREF(out);
                return NULL;
            }
            Py_DECREF(v);
        }
    }
    return out;
}

static PyObject *Root_legal(RootObject *self, PyObject *unused) {
    return cards_list(root_legal(self));
}

/* Legal cards grouped into runs of equivalent cards, each run from the top down. */
static int root_groups(RootObject *self, uint32_t mine, int8_t groups[][8], int *sizes) {
    Search *S = &self->S;
    uint32_t present = S->hands[0] | S->hands[1] | S->hands[2] | S->hands[3] | self->trick_mask;
    int n = 0;
    for (int s = 0; s < 4; s++) {
        int open = 0;
        for (int i = 0; i < ORDER_LEN[S->code][s]; i++) {
            int c = ORDER[S->code][s][i];
            if (!(present >> c & 1)) continue;
            if (mine >> c & 1) {
                if (!open) {
                    sizes[n++] = 0;
                    open = 1;
                }
                groups[n - 1][sizes[n - 1]++] = (int8_t)c;
            } else {
                open = 0;
            }
        }
    }
    return n;
}

static PyObject *group_list(const int8_t *cards, int size) {
    PyObject *g = PyList_New(size);
    if (g == NULL) return NULL;
    for (int j = 0; j < size; j++) PyList_SET_ITEM(g, j, PyLong_FromLong(cards[j]));
    return g;
}

static PyObject *Root_groups(RootObject *self, PyObject *legal) {
    PyObject *seq = PySequence_Fast(legal, "legal must be a sequence of cards");
    if (seq == NULL) return NULL;
    uint32_t mine = 0;
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(seq); i++) {
        long c = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
        if (c < 0 || c >= 24) {
            Py_DECREF(seq);
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a card is not 0..23");
            return NULL;
        }
        mine |= 1u << c;
    }
    Py_DECREF(seq);
    int8_t groups[24][8];
    int sizes[24];
    int n = root_groups(self, mine, groups, sizes);
    PyObject *out = PyList_New(n);
    if (out == NULL) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *g = group_list(groups[i], sizes[i]);
        if (g == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, i, g);
    }
    return out;
}

/* Every option of the player to move valued in one call over the root's table: a list of
 * (group, tricks) for each run of equivalent legal cards. best is the position's value:
 * a card is at best as good as the best play, and most cards are, so each search starts
 * there and most end after one null-window test. */
static PyObject *Root_values(RootObject *self, PyObject *arg) {
    long best = PyLong_AsLong(arg);
    if (best == -1 && PyErr_Occurred()) return NULL;
    int8_t groups[24][8];
    int sizes[24];
    int n = root_groups(self, root_legal(self), groups, sizes);
    int maximising = self->S.ours[self->seat];
    PyObject *out = PyList_New(n);
    if (out == NULL) return NULL;
    for (int i = 0; i < n; i++) {
        int v = maximising ? root_converge(self, groups[i][0], 0, (int)best, (int)best)
                           : root_converge(self, groups[i][0], (int)best, self->left, (int)best);
        PyObject *g = group_list(groups[i], sizes[i]);
        PyObject *pair = g == NULL ? NULL : Py_BuildValue("(Ni)", g, v);
        if (pair == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, i, pair);
    }
    return out;
}

static PyObject *Root_release(RootObject *self, PyObject *unused) {
    Py_RETURN_NONE; /* nothing to break: the root holds no cycle */
}

static PyMethodDef Root_methods[] = {
    {"test", (PyCFunction)Root_test, METH_O,
     "Null-window fail-soft test: does the side take at least need more tricks?"},
    {"after", (PyCFunction)Root_after, METH_O,
     "The test for the position after the player to move plays card."},
    {"converge", (PyCFunction)Root_converge, METH_VARARGS | METH_STATIC,
     "converge(test, lo, hi, guess): the exact value in [lo, hi] by null-window tests."},
    {"legal", (PyCFunction)Root_legal, METH_NOARGS, "The legal cards of the player to move."},
    {"groups", (PyCFunction)Root_groups, METH_O, "Legal cards grouped into equivalent runs."},
    {"values", (PyCFunction)Root_values, METH_O,
     "values(best): (group, tricks) for every run of equivalent legal cards."},
    {"release", (PyCFunction)Root_release, METH_NOARGS, "Free the search (nothing to do)."},
    {NULL, NULL, 0, NULL},
};

static PyObject *Root_get_ours(RootObject *self, void *closure) {
    Py_INCREF(self->ours_list);
    return self->ours_list;
}

static PyObject *Root_get_int(RootObject *self, void *closure) {
    const char *name = closure;
    if (strcmp(name, "seat") == 0) return PyLong_FromLong(self->seat);
    if (strcmp(name, "left") == 0) return PyLong_FromLong(self->left);
    if (strcmp(name, "pos") == 0) return PyLong_FromLong(self->pos);
    if (strcmp(name, "size") == 0) return PyLong_FromLong(self->S.size);
    return PyLong_FromUnsignedLongLong(self->S.nodes);
}

static PyObject *Root_get_position(RootObject *self, void *closure) {
    Py_INCREF(self->position);
    return self->position;
}

static PyGetSetDef Root_getset[] = {
    {"ours", (getter)Root_get_ours, NULL, "1 for each seat of the maximised side", NULL},
    {"seat", (getter)Root_get_int, NULL, "the seat to play", "seat"},
    {"left", (getter)Root_get_int, NULL, "tricks left", "left"},
    {"pos", (getter)Root_get_int, NULL, "cards already in the current trick", "pos"},
    {"size", (getter)Root_get_int, NULL, "seats in play", "size"},
    {"nodes", (getter)Root_get_int, NULL, "positions searched so far", "nodes"},
    {"position", (getter)Root_get_position, NULL, "the position searched", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject RootType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "pepper_tutor.analysis._search_native._Root",
    .tp_doc = "The root of a search: _Root(position, table), as search._Root.",
    .tp_basicsize = sizeof(RootObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = Root_new,
    .tp_init = (initproc)Root_init,
    .tp_dealloc = (destructor)Root_dealloc,
    .tp_methods = Root_methods,
    .tp_getset = Root_getset,
};

/* ---- the tables, read from the ranking module ------------------------------------------ */

static int read_row(PyObject *rows, Py_ssize_t i, Py_ssize_t j, long *out) {
    PyObject *row = PySequence_GetItem(rows, i);
    if (row == NULL) return -1;
    PyObject *v = PySequence_GetItem(row, j);
    Py_DECREF(row);
    if (v == NULL) return -1;
    *out = PyLong_AsLong(v);
    Py_DECREF(v);
    return (*out == -1 && PyErr_Occurred()) ? -1 : 0;
}

static int load_tables(void) {
    PyObject *ranking = PyImport_ImportModule("pepper_tutor.engine.ranking");
    if (ranking == NULL) return -1;
    PyObject *suits = PyObject_GetAttrString(ranking, "EFFECTIVE_SUIT");
    PyObject *ranks = PyObject_GetAttrString(ranking, "TRICK_RANK");
    PyObject *power = PyObject_GetAttrString(ranking, "TRICK_POWER");
    Py_DECREF(ranking);
    int ok = -1;
    int rank[NCODES][24];
    if (suits == NULL || ranks == NULL || power == NULL) goto done;
    if (PySequence_Size(suits) != NCODES) {
        PyErr_SetString(PyExc_ImportError, "the ranking tables are not the ones this search "
                                           "was written for (rebuild it)");
        goto done;
    }
    for (int code = 0; code < NCODES; code++) {
        PyObject *rows = PySequence_GetItem(power, code);
        if (rows == NULL) goto done;
        for (int c = 0; c < 24; c++) {
            long s, r;
            if (read_row(suits, code, c, &s) < 0 || read_row(ranks, code, c, &r) < 0) {
                Py_DECREF(rows);
                goto done;
            }
            SUIT_OF[code][c] = (int8_t)s;
            rank[code][c] = (int)r;
            for (int led = 0; led < 4; led++) {
                long p;
                if (read_row(rows, led, c, &p) < 0) {
                    Py_DECREF(rows);
                    goto done;
                }
                POWER[code][led][c] = (int8_t)p;
            }
        }
        Py_DECREF(rows);
        for (int s = 0; s < 4; s++) {
            SUIT_MASK[code][s] = 0;
            ORDER_LEN[code][s] = 0;
        }
        for (int c = 0; c < 24; c++) {
            SUIT_MASK[code][SUIT_OF[code][c]] |= 1u << c;
            STRENGTH[code][c] = POWER[code][SUIT_OF[code][c]][c];
        }
        for (int s = 0; s < 4; s++) {
            /* the suit's cards from the highest trick rank down */
            int n = 0;
            for (int c = 0; c < 24; c++) {
                if (SUIT_OF[code][c] != s) continue;
                int j = n++;
                while (j > 0 && rank[code][ORDER[code][s][j - 1]] < rank[code][c]) {
                    ORDER[code][s][j] = ORDER[code][s][j - 1];
                    j--;
                }
                ORDER[code][s][j] = (int8_t)c;
            }
            ORDER_LEN[code][s] = (int8_t)n;
            for (int k = 0; k < 3; k++) {
                for (int v = 0; v < 256; v++) {
                    uint8_t bits = 0;
                    for (int i = 0; i < n; i++) {
                        int c = ORDER[code][s][i];
                        if (c >= 8 * k && c < 8 * k + 8 && (v >> (c - 8 * k) & 1))
                            bits |= (uint8_t)(1u << i);
                    }
                    RANK_BITS[code][s][k][v] = bits;
                }
            }
        }
    }
    ok = 0;
done:
    Py_XDECREF(suits);
    Py_XDECREF(ranks);
    Py_XDECREF(power);
    return ok;
}

static PyObject *strength_lists(void) {
    PyObject *out = PyList_New(NCODES);
    if (out == NULL) return NULL;
    for (int code = 0; code < NCODES; code++) {
        PyObject *row = PyList_New(24);
        if (row == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        for (int c = 0; c < 24; c++) PyList_SET_ITEM(row, c, PyLong_FromLong(STRENGTH[code][c]));
        PyList_SET_ITEM(out, code, row);
    }
    return out;
}

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT,
    .m_name = "pepper_tutor.analysis._search_native",
    .m_doc = "The double-dummy search in C (see _search_native.c and analysis/native.py).",
    .m_size = -1,
};

PyMODINIT_FUNC PyInit__search_native(void) {
    if (load_tables() < 0) return NULL;
    if (PyType_Ready(&TableType) < 0 || PyType_Ready(&RootType) < 0
        || PyType_Ready(&AfterType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&module_def);
    if (m == NULL) return NULL;
    PyObject *strength = strength_lists();
    if (strength == NULL || PyModule_AddObject(m, "_STRENGTH", strength) < 0
        || PyModule_AddStringConstant(m, "SOURCE_DIGEST", SOURCE_DIGEST) < 0) {
        Py_XDECREF(strength);
        Py_DECREF(m);
        return NULL;
    }
    Py_INCREF(&RootType);
    if (PyModule_AddObject(m, "_Root", (PyObject *)&RootType) < 0) {
        Py_DECREF(&RootType);
        Py_DECREF(m);
        return NULL;
    }
    Py_INCREF(&TableType);
    if (PyModule_AddObject(m, "Table", (PyObject *)&TableType) < 0) {
        Py_DECREF(&TableType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
