// PLACEHOLDER: the benchmark arrives with the side-table issue (6).
print("tabicon-bench: no scenario yet")
