install();
})(window);
