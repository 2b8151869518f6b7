"""The lazy registry loads and links papers safely when threads race for them."""
import threading

from boundcalc.registry.registry import Registry, _expand, packaged_dir


def test_threads_racing_on_a_fresh_registry_all_see_linked_papers():
    for _ in range(3):
        reg = Registry(_expand([packaged_dir()]))
        assert reg._papers == {}                  # nothing loaded yet: the threads race for it
        errors: list = []
        barrier = threading.Barrier(8)

        def work(i, reg=reg, barrier=barrier, errors=errors):
            try:
                barrier.wait()
                key = ("anon2025", "deora2023", "tarzanagh2023", "arda2026")[i % 4]
                p = reg.paper(key)
                for name in p.formulas:
                    reg.resolved(f"{key}.{name}")
            except Exception as e:  # collected and asserted below
                errors.append(repr(e))

        threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert errors == []
        assert set(reg._ready) == {"anon2025", "deora2023", "tarzanagh2023", "arda2026"}
