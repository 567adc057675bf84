/* The store picker page: filled in by the page work of issue 14. */
