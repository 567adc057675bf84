/*
 * geosearch_load: the load client of the Redis anchor in scripts/service_benchmark.py.
 *
 *   gcc -O2 -o geosearch_load geosearch_load.c
 *   geosearch_load 127.0.0.1 PORT KEY RADIUS_KM CONNECTIONS SECONDS QUERIES.f64
 *
 * What wrk is to the HTTP rows, for Redis: one thread, CONNECTIONS connections (64 in the
 * benchmark), each with one request in flight, for SECONDS, then one line "GEOSEARCH_JSON {...}"
 * on standard output. redis-benchmark cannot send a different point in each request, and a
 * Python client would cost more CPU per request than Redis itself, so this is a plain epoll loop
 * over non-blocking sockets with RESP written by hand: no library to install, and per request
 * one write, one read and a scan of the reply.
 *
 * The requests are GEOSEARCH KEY FROMLONLAT LON LAT BYRADIUS RADIUS_KM km ASC COUNT 10 WITHDIST,
 * one per point of QUERIES.f64 (stores-benchmarks export-points: latitude, longitude as
 * little-endian float64 pairs, uniform on the sphere), all formatted once before the clock starts
 * and sent in turn, like service_wrk.lua. Redis refuses latitudes beyond +-85.05112878 (the limit
 * of its Web Mercator geohash), so such points are clamped to +-85.051128, just inside it (as the
 * script clamps the stores), and counted.
 *
 * Latency is per request, from the write to the last byte of the reply (as wrk measures; no
 * correction for coordinated omission). Each reply is parsed far enough to count its results:
 * an array of fewer than 10 is counted as "short" (fewer than 10 members within the radius), an
 * error reply as an error. The client's own CPU time over the run is reported, so the script can
 * check it stayed below Redis's (Redis answers on one thread; a saturated client would measure
 * itself), and so is the time it waited for a core (the machine is shared).
 *
 * Bounded in time: no request is sent after SECONDS; the loop gives up 5 s later and counts what
 * is still in flight as timeouts.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define COUNT 10
#define MAX_LATITUDE 85.05112878
#define CLAMPED_LATITUDE "85.051128"  /* printed with 6 decimals, 85.05112878 would round past it */
#define IN_CAP 16384              /* a reply of 10 members with distances is about 300 bytes */
#define GRACE_NS 5000000000ull    /* after the run, wait this long for replies in flight */

struct command {
    char *bytes;
    size_t length;
};

struct conn {
    int fd;
    int busy;                 /* a request is in flight */
    int open;
    const struct command *out;
    size_t out_off;
    uint64_t sent_ns;
    size_t in_len;
    char in[IN_CAP];
};

static uint64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

static void die(const char *what) {
    fprintf(stderr, "geosearch_load: %s: %s\n", what, strerror(errno));
    exit(2);
}

/* The end (one past) of the CRLF-terminated line starting at p, or 0 if it is not complete. */
static size_t line_end(const char *b, size_t len, size_t p) {
    for (size_t i = p; i + 1 < len; i++)
        if (b[i] == '\r' && b[i + 1] == '\n')
            return i + 2;
    return 0;
}

/* The end (one past) of the RESP2 value starting at p: 0 if incomplete, (size_t)-1 if malformed. */
static size_t resp_end(const char *b, size_t len, size_t p, int depth) {
    if (p >= len)
        return 0;
    if (depth > 4)
        return (size_t)-1;
    size_t e = line_end(b, len, p);
    if (e == 0)
        return 0;
    long n;
    switch (b[p]) {
    case '+': case '-': case ':':
        return e;
    case '$':
        n = strtol(b + p + 1, NULL, 10);
        if (n < 0)
            return e;
        return e + (size_t)n + 2 <= len ? e + (size_t)n + 2 : 0;
    case '*':
        n = strtol(b + p + 1, NULL, 10);
        for (long i = 0; i < n; i++) {
            e = resp_end(b, len, e, depth + 1);
            if (e == 0 || e == (size_t)-1)
                return e;
        }
        return e;
    default:
        return (size_t)-1;
    }
}

static int cmp_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Seconds this thread has spent runnable but waiting for a core (/proc/self/schedstat, second
 * field): on a shared machine, what the scheduler withheld from the client. */
static double wait_seconds(void) {
    unsigned long long run = 0, wait = 0;
    FILE *f = fopen("/proc/self/schedstat", "r");
    if (f) {
        if (fscanf(f, "%llu %llu", &run, &wait) != 2)
            wait = 0;
        fclose(f);
    }
    return (double)wait / 1e9;
}

static double cpu_seconds(void) {
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return u.ru_utime.tv_sec + u.ru_utime.tv_usec / 1e6 + u.ru_stime.tv_sec + u.ru_stime.tv_usec / 1e6;
}

/* Counters of the run. */
static uint64_t *latencies;
static size_t n_lat, cap_lat;
static uint64_t replies, error_replies, short_replies, clamped_requests, socket_errors, timeouts,
    bytes_in, results;
static uint64_t first_send_ns, last_reply_ns;

static struct command *commands;
static unsigned char *clamped;
static size_t n_commands, next_command;
static int epoll_fd;

static void close_conn(struct conn *c) {
    if (c->open) {
        epoll_ctl(epoll_fd, EPOLL_CTL_DEL, c->fd, NULL);
        close(c->fd);
        c->open = 0;
    }
}

/* Writes what is left of the request; waits for EPOLLOUT when the socket buffer is full. */
static int flush_out(struct conn *c) {
    while (c->out_off < c->out->length) {
        ssize_t w = write(c->fd, c->out->bytes + c->out_off, c->out->length - c->out_off);
        if (w < 0) {
            if (errno == EAGAIN || errno == EWOULDBLOCK) {
                struct epoll_event ev = {.events = EPOLLIN | EPOLLOUT, .data.ptr = c};
                epoll_ctl(epoll_fd, EPOLL_CTL_MOD, c->fd, &ev);
                return 0;
            }
            return -1;
        }
        c->out_off += (size_t)w;
    }
    return 0;
}

static int send_next(struct conn *c, uint64_t t) {
    size_t i = next_command;
    next_command = (next_command + 1) % n_commands;
    c->out = &commands[i];
    c->out_off = 0;
    c->busy = 1;
    c->sent_ns = t;
    if (clamped[i])
        clamped_requests++;
    return flush_out(c);
}

static void record(uint64_t ns) {
    if (n_lat == cap_lat) {
        cap_lat = cap_lat ? cap_lat * 2 : 1 << 20;
        latencies = realloc(latencies, cap_lat * sizeof *latencies);
        if (!latencies)
            die("realloc");
    }
    latencies[n_lat++] = ns;
}

int main(int argc, char **argv) {
    if (argc != 8) {
        fprintf(stderr, "usage: geosearch_load HOST PORT KEY RADIUS_KM CONNECTIONS SECONDS QUERIES.f64\n");
        return 2;
    }
    const char *host = argv[1], *key = argv[3], *radius = argv[4], *path = argv[7];
    int port = atoi(argv[2]), connections = atoi(argv[5]);
    double seconds = atof(argv[6]);
    if (port <= 0 || connections <= 0 || connections > 4096 || seconds <= 0 || atof(radius) <= 0) {
        fprintf(stderr, "geosearch_load: bad argument\n");
        return 2;
    }

    /* The query points, formatted once. */
    FILE *f = fopen(path, "rb");
    if (!f)
        die(path);
    struct stat st;
    if (fstat(fileno(f), &st) != 0)
        die(path);
    size_t n_points = (size_t)st.st_size / 16;
    if (n_points == 0) {
        fprintf(stderr, "geosearch_load: %s holds no points\n", path);
        return 2;
    }
    double *points = malloc(n_points * 16);
    if (!points || fread(points, 16, n_points, f) != n_points)
        die("reading the query points");
    fclose(f);
    commands = calloc(n_points, sizeof *commands);
    clamped = calloc(n_points, 1);
    size_t clamped_points = 0;
    for (size_t i = 0; i < n_points; i++) {
        double lat = points[2 * i], lon = points[2 * i + 1];
        if (lat > MAX_LATITUDE || lat < -MAX_LATITUDE) {
            clamped[i] = 1;
            clamped_points++;
        }
        char slon[32], slat[32], scount[8];
        snprintf(slon, sizeof slon, "%.6f", lon);
        if (clamped[i])
            snprintf(slat, sizeof slat, "%s%s", lat > 0 ? "" : "-", CLAMPED_LATITUDE);
        else
            snprintf(slat, sizeof slat, "%.6f", lat);
        snprintf(scount, sizeof scount, "%d", COUNT);
        const char *args[] = {"GEOSEARCH", key, "FROMLONLAT", slon, slat, "BYRADIUS", radius, "km",
                              "ASC", "COUNT", scount, "WITHDIST"};
        size_t n_args = sizeof args / sizeof *args;
        char buffer[512];
        size_t len = (size_t)snprintf(buffer, sizeof buffer, "*%zu\r\n", n_args);
        for (size_t a = 0; a < n_args; a++) {
            if (len + strlen(args[a]) + 32 > sizeof buffer) {
                fprintf(stderr, "geosearch_load: argument too long\n");
                return 2;
            }
            len += (size_t)snprintf(buffer + len, sizeof buffer - len, "$%zu\r\n%s\r\n", strlen(args[a]), args[a]);
        }
        commands[i].bytes = malloc(len);
        memcpy(commands[i].bytes, buffer, len);
        commands[i].length = len;
    }
    free(points);
    n_commands = n_points;

    /* The connections: made (blocking, loopback) before the clock starts, then non-blocking. */
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    if (inet_pton(AF_INET, host, &address.sin_addr) != 1) {
        fprintf(stderr, "geosearch_load: HOST must be an IPv4 address\n");
        return 2;
    }
    epoll_fd = epoll_create1(0);
    if (epoll_fd < 0)
        die("epoll_create1");
    struct conn *conns = calloc((size_t)connections, sizeof *conns);
    for (int i = 0; i < connections; i++) {
        struct conn *c = &conns[i];
        c->fd = socket(AF_INET, SOCK_STREAM, 0);
        if (c->fd < 0)
            die("socket");
        if (connect(c->fd, (struct sockaddr *)&address, sizeof address) != 0)
            die("connect");
        int one = 1;
        setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        fcntl(c->fd, F_SETFL, fcntl(c->fd, F_GETFL) | O_NONBLOCK);
        struct epoll_event ev = {.events = EPOLLIN, .data.ptr = c};
        if (epoll_ctl(epoll_fd, EPOLL_CTL_ADD, c->fd, &ev) != 0)
            die("epoll_ctl");
        c->open = 1;
    }

    double cpu_start = cpu_seconds(), wait_start = wait_seconds();
    uint64_t start = now_ns();
    uint64_t deadline = start + (uint64_t)(seconds * 1e9);
    first_send_ns = start;
    last_reply_ns = start;
    int active = 0;
    for (int i = 0; i < connections; i++) {
        if (send_next(&conns[i], now_ns()) != 0) {
            socket_errors++;
            close_conn(&conns[i]);
        } else {
            active++;
        }
    }

    struct epoll_event events[256];
    while (active > 0) {
        int n = epoll_wait(epoll_fd, events, 256, 100);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            die("epoll_wait");
        }
        uint64_t t = now_ns();
        for (int e = 0; e < n; e++) {
            struct conn *c = events[e].data.ptr;
            if (!c->open)
                continue;
            if ((events[e].events & EPOLLOUT) && c->busy && c->out_off < c->out->length) {
                if (flush_out(c) != 0) {
                    socket_errors++;
                    close_conn(c);
                    active--;
                    continue;
                }
                if (c->out_off == c->out->length) {
                    struct epoll_event ev = {.events = EPOLLIN, .data.ptr = c};
                    epoll_ctl(epoll_fd, EPOLL_CTL_MOD, c->fd, &ev);
                }
            }
            if (!(events[e].events & (EPOLLIN | EPOLLERR | EPOLLHUP)))
                continue;
            /* One read per event: epoll is level-triggered, so the rest of a reply that did not
             * fit (or had not arrived) wakes the loop again, and no read is spent on EAGAIN. */
            int failed = 0;
            if (c->in_len == IN_CAP) {
                failed = 1;  /* a reply larger than any GEOSEARCH ... COUNT 10 answer */
            } else {
                ssize_t r = read(c->fd, c->in + c->in_len, IN_CAP - c->in_len);
                if (r > 0) {
                    c->in_len += (size_t)r;
                    bytes_in += (uint64_t)r;
                } else if (r == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) {
                    failed = 1;  /* closed by Redis, or a socket error */
                }
            }
            size_t end = c->busy ? resp_end(c->in, c->in_len, 0, 0) : 0;
            if (end == (size_t)-1 || (!c->busy && c->in_len > 0))
                failed = 1;
            if (end != 0 && end != (size_t)-1) {
                t = now_ns();
                record(t - c->sent_ns);
                last_reply_ns = t;
                replies++;
                if (c->in[0] == '-') {
                    error_replies++;
                } else if (c->in[0] == '*') {
                    long k = strtol(c->in + 1, NULL, 10);
                    results += (uint64_t)(k > 0 ? k : 0);
                    if (k < COUNT)
                        short_replies++;
                } else {
                    error_replies++;  /* not the array GEOSEARCH answers */
                }
                memmove(c->in, c->in + end, c->in_len - end);
                c->in_len -= end;
                c->busy = 0;
                if (c->in_len > 0)
                    failed = 1;  /* bytes nobody asked for */
                else if (!failed && t < deadline && send_next(c, t) != 0)
                    failed = 1;
            }
            if (failed) {
                socket_errors++;
                c->busy = 0;
                close_conn(c);
                active--;
            } else if (!c->busy) {
                close_conn(c);  /* the run is over for this connection */
                active--;
            }
        }
        if (now_ns() > deadline + GRACE_NS) {
            for (int i = 0; i < connections; i++)
                if (conns[i].open) {
                    if (conns[i].busy)
                        timeouts++;
                    close_conn(&conns[i]);
                }
            active = 0;
        }
    }
    double cpu = cpu_seconds() - cpu_start, wait = wait_seconds() - wait_start;
    uint64_t end_ns = last_reply_ns > deadline ? last_reply_ns : deadline;
    if (end_ns > now_ns())
        end_ns = now_ns();

    qsort(latencies, n_lat, sizeof *latencies, cmp_u64);
    double sum = 0;
    for (size_t i = 0; i < n_lat; i++)
        sum += (double)latencies[i];
#define PCT(q) (n_lat ? latencies[(size_t)((q) * (double)n_lat) < n_lat ? (size_t)((q) * (double)n_lat) : n_lat - 1] / 1000.0 : 0.0)
    printf("GEOSEARCH_JSON {\"requests\": %llu, \"duration_us\": %.0f, \"bytes\": %llu, "
           "\"error_replies\": %llu, \"short_replies\": %llu, \"results\": %llu, "
           "\"socket_errors\": %llu, \"timeouts\": %llu, "
           "\"clamped_requests\": %llu, \"query_points\": %zu, \"clamped_points\": %zu, "
           "\"latency_mean_us\": %.1f, \"latency_max_us\": %.1f, "
           "\"p50_us\": %.1f, \"p90_us\": %.1f, \"p99_us\": %.1f, \"p999_us\": %.1f, "
           "\"client_cpu_s\": %.3f, \"client_wait_s\": %.3f, \"connections\": %d, \"radius_km\": %s, \"count\": %d}\n",
           (unsigned long long)replies, (double)(end_ns - first_send_ns) / 1000.0,
           (unsigned long long)bytes_in, (unsigned long long)error_replies,
           (unsigned long long)short_replies, (unsigned long long)results,
           (unsigned long long)socket_errors, (unsigned long long)timeouts,
           (unsigned long long)clamped_requests, n_points, clamped_points,
           n_lat ? sum / (double)n_lat / 1000.0 : 0.0, n_lat ? latencies[n_lat - 1] / 1000.0 : 0.0,
           PCT(0.50), PCT(0.90), PCT(0.99), PCT(0.999), cpu, wait, connections, radius, COUNT);
    return 0;
}
