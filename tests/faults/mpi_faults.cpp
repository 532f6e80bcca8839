/* Fault injection for the MPI benchmarks' validation tests (LD_PRELOAD):
 * an MPI profiling-interface (PMPI) wrapper that spoils one received
 * transfer in N, as a faulty network, driver or MPI library would.
 *
 *   MOVEBENCH_FAULT_EVERY  N (default 8): the Nth, 2Nth, ... receive of data
 *   MOVEBENCH_FAULT_MODE   flip (default): one byte of the received data changed
 *                          drop: the receive buffer keeps what it held before
 *                          shift: the data arrives rotated by 256 bytes
 *   MOVEBENCH_FAULT_LOG    when set, each fault is reported on stderr
 *
 * Only data transfers are spoiled: byte and char messages, and sums of
 * doubles (the reductions coll checks). movebench's own control messages
 * (agreements: MPI_INT max; timings: one double, max/min/gather) pass, so
 * a run fails by its validation and not by confusion. Standard MPI only;
 * C++ only because the project builds no C (the MPI_ names keep C linkage
 * from mpi.h). */
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

enum mode { FLIP, DROP, SHIFT };

static long every_n(void) {
  const char* s = getenv("MOVEBENCH_FAULT_EVERY");
  long n = s ? atol(s) : 8;
  return n > 0 ? n : 8;
}

static enum mode fault_mode(void) {
  const char* s = getenv("MOVEBENCH_FAULT_MODE");
  if (s && strcmp(s, "drop") == 0) return DROP;
  if (s && strcmp(s, "shift") == 0) return SHIFT;
  return FLIP;
}

static long events = 0; /* receives of data so far (the wrapped calls are all on one thread) */

static int is_data(MPI_Datatype t, MPI_Op op) {
  if (t == MPI_BYTE || t == MPI_CHAR || t == MPI_UNSIGNED_CHAR) return 1;
  return t == MPI_DOUBLE && op == MPI_SUM;
}

static size_t type_size(MPI_Datatype t) {
  int s = 0;
  PMPI_Type_size(t, &s);
  return (size_t)s;
}

/* True when this receive of data is one to spoil. */
static int chosen(MPI_Datatype t, MPI_Op op, size_t bytes) {
  if (!is_data(t, op) || bytes == 0) return 0;
  return ++events % every_n() == 0;
}

/* Saved content for `drop`: what the buffer held before the receive. */
struct saved {
  void* buf;
  size_t bytes;
  unsigned char* copy;
};

static saved before(void* buf, size_t bytes) {
  saved s = {buf, bytes, nullptr};
  if (fault_mode() == DROP) {
    s.copy = static_cast<unsigned char*>(malloc(bytes));
    if (s.copy) memcpy(s.copy, buf, bytes);
  }
  return s;
}

static void spoil(saved* s, MPI_Datatype t, const char* where) {
  unsigned char* p = static_cast<unsigned char*>(s->buf);
  const size_t elem = type_size(t);
  const enum mode m = fault_mode();
  if (m == DROP && s->copy) {
    memcpy(p, s->copy, s->bytes);
  } else if (m == SHIFT && s->bytes > 256) {
    unsigned char* tmp = static_cast<unsigned char*>(malloc(s->bytes));
    if (tmp) {
      memcpy(tmp, p + 256, s->bytes - 256);
      memcpy(tmp + s->bytes - 256, p, 256);
      memcpy(p, tmp, s->bytes);
      free(tmp);
    }
  } else {
    /* A byte in the middle; for doubles a high mantissa byte, so the value changes. */
    const size_t at = (s->bytes / elem / 2) * elem + (elem == 8 ? 6 : 0);
    p[at] ^= 0x10;
  }
  free(s->copy);
  s->copy = nullptr;
  if (getenv("MOVEBENCH_FAULT_LOG")) {
    int rank = 0;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    fprintf(stderr, "mpi_faults: rank %d: spoiled %s of %zu bytes (event %ld)\n", rank, where, s->bytes, events);
  }
}

#define RECEIVE(call, buf, bytes, type, op, where)     \
  do {                                                 \
    const int spoil_it = chosen(type, op, bytes);      \
    saved s = spoil_it ? before(buf, bytes) : saved{}; \
    const int rc = call;                               \
    if (spoil_it) spoil(&s, type, where);              \
    return rc;                                         \
  } while (0)

static size_t bytes_of(int count, MPI_Datatype t) { return count > 0 ? (size_t)count * type_size(t) : 0; }

static int comm_rank(MPI_Comm c) {
  int r = 0;
  PMPI_Comm_rank(c, &r);
  return r;
}
static int comm_size(MPI_Comm c) {
  int n = 0;
  PMPI_Comm_size(c, &n);
  return n;
}

/* The largest block of a v-receive: the part spoiled. */
static void largest_block(const int* counts, const int* displs, int n, MPI_Datatype t, void* buf, void** at,
                          size_t* bytes) {
  int best = 0;
  for (int i = 1; i < n; ++i)
    if (counts[i] > counts[best]) best = i;
  *at = (unsigned char*)buf + (size_t)displs[best] * type_size(t);
  *bytes = bytes_of(counts[best], t);
}

int MPI_Recv(void* buf, int count, MPI_Datatype t, int src, int tag, MPI_Comm c, MPI_Status* st) {
  RECEIVE(PMPI_Recv(buf, count, t, src, tag, c, st), buf, bytes_of(count, t), t, MPI_OP_NULL, "MPI_Recv");
}

int MPI_Sendrecv(const void* sb, int sc, MPI_Datatype st_, int dst, int stag, void* rb, int rc_, MPI_Datatype rt,
                 int src, int rtag, MPI_Comm c, MPI_Status* status) {
  RECEIVE(PMPI_Sendrecv(sb, sc, st_, dst, stag, rb, rc_, rt, src, rtag, c, status), rb, bytes_of(rc_, rt), rt,
          MPI_OP_NULL, "MPI_Sendrecv");
}

/* Non-blocking receives: chosen when posted, spoiled when completed. */
#define MAX_PENDING 4096
static struct {
  MPI_Request req;
  saved s;
  MPI_Datatype t;
} pending[MAX_PENDING];
static int npending = 0;

int MPI_Irecv(void* buf, int count, MPI_Datatype t, int src, int tag, MPI_Comm c, MPI_Request* req) {
  const size_t bytes = bytes_of(count, t);
  const int spoil_it = chosen(t, MPI_OP_NULL, bytes) && npending < MAX_PENDING;
  saved s = spoil_it ? before(buf, bytes) : saved{};
  const int rc = PMPI_Irecv(buf, count, t, src, tag, c, req);
  if (spoil_it) {
    pending[npending].req = *req;
    pending[npending].s = s;
    pending[npending].t = t;
    ++npending;
  }
  return rc;
}

static void completed(MPI_Request req) {
  for (int i = 0; i < npending; ++i) {
    if (pending[i].req != req) continue;
    spoil(&pending[i].s, pending[i].t, "MPI_Irecv");
    pending[i] = pending[--npending];
    return;
  }
}

int MPI_Wait(MPI_Request* req, MPI_Status* st) {
  const MPI_Request r = *req;
  const int rc = PMPI_Wait(req, st);
  if (npending) completed(r);
  return rc;
}

int MPI_Waitall(int n, MPI_Request reqs[], MPI_Status sts[]) {
  MPI_Request copy[256];
  const int keep = npending && n <= 256;
  if (keep) memcpy(copy, reqs, (size_t)n * sizeof(MPI_Request));
  const int rc = PMPI_Waitall(n, reqs, sts);
  if (keep)
    for (int i = 0; i < n; ++i) completed(copy[i]);
  return rc;
}

int MPI_Bcast(void* buf, int count, MPI_Datatype t, int root, MPI_Comm c) {
  if (comm_rank(c) == root) return PMPI_Bcast(buf, count, t, root, c);
  RECEIVE(PMPI_Bcast(buf, count, t, root, c), buf, bytes_of(count, t), t, MPI_OP_NULL, "MPI_Bcast");
}

int MPI_Allreduce(const void* sb, void* rb, int count, MPI_Datatype t, MPI_Op op, MPI_Comm c) {
  RECEIVE(PMPI_Allreduce(sb, rb, count, t, op, c), rb, bytes_of(count, t), t, op, "MPI_Allreduce");
}

int MPI_Reduce(const void* sb, void* rb, int count, MPI_Datatype t, MPI_Op op, int root, MPI_Comm c) {
  if (comm_rank(c) != root) return PMPI_Reduce(sb, rb, count, t, op, root, c);
  RECEIVE(PMPI_Reduce(sb, rb, count, t, op, root, c), rb, bytes_of(count, t), t, op, "MPI_Reduce");
}

int MPI_Reduce_scatter_block(const void* sb, void* rb, int count, MPI_Datatype t, MPI_Op op, MPI_Comm c) {
  RECEIVE(PMPI_Reduce_scatter_block(sb, rb, count, t, op, c), rb, bytes_of(count, t), t, op,
          "MPI_Reduce_scatter_block");
}

int MPI_Alltoall(const void* sb, int sc, MPI_Datatype st, void* rb, int rc_, MPI_Datatype rt, MPI_Comm c) {
  RECEIVE(PMPI_Alltoall(sb, sc, st, rb, rc_, rt, c), rb, bytes_of(rc_, rt) * (size_t)comm_size(c), rt, MPI_OP_NULL,
          "MPI_Alltoall");
}

int MPI_Allgather(const void* sb, int sc, MPI_Datatype st, void* rb, int rc_, MPI_Datatype rt, MPI_Comm c) {
  RECEIVE(PMPI_Allgather(sb, sc, st, rb, rc_, rt, c), rb, bytes_of(rc_, rt) * (size_t)comm_size(c), rt, MPI_OP_NULL,
          "MPI_Allgather");
}

int MPI_Gather(const void* sb, int sc, MPI_Datatype st, void* rb, int rc_, MPI_Datatype rt, int root, MPI_Comm c) {
  if (comm_rank(c) != root) return PMPI_Gather(sb, sc, st, rb, rc_, rt, root, c);
  RECEIVE(PMPI_Gather(sb, sc, st, rb, rc_, rt, root, c), rb, bytes_of(rc_, rt) * (size_t)comm_size(c), rt, MPI_OP_NULL,
          "MPI_Gather");
}

int MPI_Scatter(const void* sb, int sc, MPI_Datatype st, void* rb, int rc_, MPI_Datatype rt, int root, MPI_Comm c) {
  RECEIVE(PMPI_Scatter(sb, sc, st, rb, rc_, rt, root, c), rb, bytes_of(rc_, rt), rt, MPI_OP_NULL, "MPI_Scatter");
}

int MPI_Alltoallv(const void* sb, const int sc[], const int sd[], MPI_Datatype st, void* rb, const int rcs[],
                  const int rd[], MPI_Datatype rt, MPI_Comm c) {
  void* at = rb;
  size_t bytes = 0;
  largest_block(rcs, rd, comm_size(c), rt, rb, &at, &bytes);
  RECEIVE(PMPI_Alltoallv(sb, sc, sd, st, rb, rcs, rd, rt, c), at, bytes, rt, MPI_OP_NULL, "MPI_Alltoallv");
}

int MPI_Allgatherv(const void* sb, int sc, MPI_Datatype st, void* rb, const int rcs[], const int rd[], MPI_Datatype rt,
                   MPI_Comm c) {
  void* at = rb;
  size_t bytes = 0;
  largest_block(rcs, rd, comm_size(c), rt, rb, &at, &bytes);
  RECEIVE(PMPI_Allgatherv(sb, sc, st, rb, rcs, rd, rt, c), at, bytes, rt, MPI_OP_NULL, "MPI_Allgatherv");
}

int MPI_Gatherv(const void* sb, int sc, MPI_Datatype st, void* rb, const int rcs[], const int rd[], MPI_Datatype rt,
                int root, MPI_Comm c) {
  if (comm_rank(c) != root) return PMPI_Gatherv(sb, sc, st, rb, rcs, rd, rt, root, c);
  void* at = rb;
  size_t bytes = 0;
  largest_block(rcs, rd, comm_size(c), rt, rb, &at, &bytes);
  RECEIVE(PMPI_Gatherv(sb, sc, st, rb, rcs, rd, rt, root, c), at, bytes, rt, MPI_OP_NULL, "MPI_Gatherv");
}
