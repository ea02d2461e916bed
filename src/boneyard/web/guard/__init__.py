"""The guard every request passes: budgets per client and kind (``budgets``), the outer
middleware (headers, origins, hosts, sizes: ``middleware``), connection limits below the app
(``connections``) and the token buckets they count with (``limits``)."""
