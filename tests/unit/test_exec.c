/* tests/unit/test_exec.c: the backend table (runtime/backends.c, CPU-only build) and the plan
 * executor (runtime/core/exec.c) through a backend's plan operations: a hand-built plan runs its
 * C functions on the CPU backend; executors of one plan share its kernels; a plan without code
 * for the backend is RT_EUNSUPPORTED (the JIT's cue to fall back), a plan of another ABI and
 * bad inputs are clear errors; rt_exec_check_inputs gives the executor's messages alone. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "../../runtime/core/exec.h"

#define TEST(name) static void name(void **state)

/* out = x + 1 over 4 float32 elements: p[0] is x, p[1] the output. */
static void add_one(const void *args) {
    char *const *p = args;
    const float *x = (const float *)p[0];
    float *y = (float *)p[1];
    for (int i = 0; i < 4; i++) y[i] = x[i] + 1;
}
static const RtCpuKernel kernels[] = {add_one};
static const RtPlanIO inputs[] = {{.name = "x", .dtype = DT_FLOAT32, .rank = 1, .dims = {4}, .scalar = -1, .donated_from = -1}};
static const RtPlanIO outputs[] = {{.name = "y", .dtype = DT_FLOAT32, .rank = 1, .dims = {4}, .scalar = -1, .donated_from = -1}};
static const RtPlanStep steps[] = {{.kind = RT_STEP_ELEMWISE, .kernel = "gtc_k0", .ops = "add", .reads = "x", .writes = "y"}};

static RtPlan plan_with(const RtCpuKernel *cpu) {
    RtPlan p = {.abi = RT_PLAN_ABI, .graph = "add_one", .class_name = "AddOne", .ninputs = 1, .noutputs = 1,
                .inputs = inputs, .outputs = outputs, .nsteps = 1, .steps = steps, .cpu = cpu};
    return p;
}

TEST(backend_table__cpu_only_build__finds_cpu_and_nothing_else) {
    (void)state;
    assert_ptr_equal(rt_backend_find("cpu"), &rt_cpu_backend);
    assert_null(rt_backend_find("cuda")); /* this test links the table without GTC_HAVE_CUDA */
    assert_null(rt_backend_find(""));
    assert_ptr_equal(rt_backends[0], &rt_cpu_backend);
    assert_null(rt_backends[1]);
    for (int i = 0; rt_backends[i]; i++) { /* every row can run plans */
        const RtPlanOps *o = rt_backends[i]->plan;
        assert_non_null(o);
        assert_non_null(o->runner);
        assert_true(o->kernels_get && o->kernels_source && o->kernels_release && o->run && o->state_free);
    }
    assert_false(rt_cpu_backend.async);
    assert_null(rt_cpu_backend.init); /* nothing to set up on the CPU */
}

TEST(exec__cpu_plan__runs_its_functions_and_reports_them) {
    (void)state;
    RtPlan p = plan_with(kernels);
    RtExec *e = rt_exec_new(&p, &rt_cpu_backend);
    assert_non_null(e);
    assert_string_equal(rt_exec_backend_name(e), "cpu");
    assert_string_equal(rt_exec_kernel_source(e), "cpu");
    int64_t shape[1] = {4};
    float xs[4] = {1, 2, 3, -4}, ys[4];
    RtTensor *x = rt_from_host(&rt_cpu_backend, DT_FLOAT32, 1, shape, xs), *out[1] = {NULL};
    for (int k = 1; k <= 3; k++) {
        assert_int_equal(rt_exec_run(e, &x, NULL, out), 0);
        assert_int_equal(rt_to_host(out[0], ys), 0);
        assert_true(ys[0] == 2 && ys[1] == 3 && ys[2] == 4 && ys[3] == -3);
        rt_release(out[0]);
        assert_int_equal(rt_exec_replays(e), k);
    }
    rt_release(x);
    rt_exec_free(e);
}

TEST(exec__two_executors_of_one_plan__share_its_kernels) {
    (void)state;
    RtPlan p = plan_with(kernels);
    void *k1 = rt_cpu_backend.plan->kernels_get(&p), *k2 = rt_cpu_backend.plan->kernels_get(&p);
    assert_non_null(k1);
    assert_ptr_equal(k1, k2);
    rt_cpu_backend.plan->kernels_release(k2);
    rt_cpu_backend.plan->kernels_release(k1);
    RtPlan q = plan_with(kernels); /* another plan: its own entry */
    k1 = rt_cpu_backend.plan->kernels_get(&p);
    k2 = rt_cpu_backend.plan->kernels_get(&q);
    assert_ptr_not_equal(k1, k2);
    rt_cpu_backend.plan->kernels_release(k1);
    rt_cpu_backend.plan->kernels_release(k2);
}

TEST(exec__plan_without_cpu_code__unsupported) {
    (void)state;
    RtPlan p = plan_with(NULL); /* no functions and no source: a model built without CPU code */
    rt_clear_error();
    assert_null(rt_exec_new(&p, &rt_cpu_backend));
    assert_int_equal(rt_status(), RT_EUNSUPPORTED);
    assert_string_equal(rt_message(), "plan add_one has no code for the cpu backend");
}

TEST(exec__other_abi__refused_by_name) {
    (void)state;
    RtPlan p = plan_with(kernels);
    p.abi = RT_PLAN_ABI + 1;
    rt_clear_error();
    assert_null(rt_exec_new(&p, &rt_cpu_backend));
    assert_int_equal(rt_status(), RT_ERUNTIME);
    assert_non_null(strstr(rt_message(), "plan add_one was built for plan ABI"));
}

TEST(exec__bad_inputs__named_errors_and_no_run) {
    (void)state;
    RtPlan p = plan_with(kernels);
    RtExec *e = rt_exec_new(&p, &rt_cpu_backend);
    assert_non_null(e);
    int64_t s3[1] = {3}, s4[1] = {4};
    RtTensor *small = rt_full(&rt_cpu_backend, DT_FLOAT32, 1, s3, 1), *ints = rt_full(&rt_cpu_backend, DT_INT32, 1, s4, 1);
    RtTensor *out[1] = {NULL}, *none = NULL;
    assert_int_equal(rt_exec_run(e, &small, NULL, out), -1);
    assert_string_equal(rt_message(), "input \"x\": expected float32 [4], got float32 [3]");
    assert_null(out[0]);
    assert_int_equal(rt_exec_check_inputs(&p, &rt_cpu_backend, &ints), -1);
    assert_string_equal(rt_message(), "input \"x\": expected float32 [4], got int32 [4]");
    assert_int_equal(rt_exec_check_inputs(&p, &rt_cpu_backend, &none), -1);
    assert_string_equal(rt_message(), "input \"x\" is missing");
    assert_int_equal(rt_exec_replays(e), 0);
    rt_release(small);
    rt_release(ints);
    rt_exec_free(e);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(backend_table__cpu_only_build__finds_cpu_and_nothing_else),
        cmocka_unit_test(exec__cpu_plan__runs_its_functions_and_reports_them),
        cmocka_unit_test(exec__two_executors_of_one_plan__share_its_kernels),
        cmocka_unit_test(exec__plan_without_cpu_code__unsupported),
        cmocka_unit_test(exec__other_abi__refused_by_name),
        cmocka_unit_test(exec__bad_inputs__named_errors_and_no_run),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
