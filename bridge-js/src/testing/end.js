install();
}
