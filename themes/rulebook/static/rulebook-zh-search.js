/* Sphinx 9's Chinese search data says `window.Stemmer = ChineseStemmer` but ships only the
   English stemmer (Chinese words are not stemmed; Latin words in Chinese pages are English).
   Defining the name before language_data.js runs lets the search work; `new ChineseStemmer()`
   returns the English stemmer, which is defined by then. */
window.ChineseStemmer = function () { return new EnglishStemmer(); };
